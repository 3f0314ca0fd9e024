#!/usr/bin/env python3
# bench/gen.py - inputs for bench/run: a machine with N SCSI disks, its alias
# table, the sed and perl equivalents, and a large kernel log naming them.
#
#   gen.py sysroot DIR N      N SAS disks sda.. under DIR, as a 6.1 kernel and udev show
#                             them: HBA, port, expander, end device, target, LUN;
#                             two partitions each, the udev database and /dev/disk links
#   gen.py table N            the alias table: bay00001.. bound to the WWNs
#   gen.py sed N              one whole-word s///g per alias, kernel name -> alias
#   gen.py perlmap N          "name<TAB>alias" lines: kernel names, partitions 1 and 2, SCSI addresses
#   gen.py log MB N           about MB megabytes of kernel log lines, one in five naming disks
import os
import re
import random
import sys


def kname(i):
    # The sd driver's naming: a..z, aa..zz, aaa.. (bijective base 26).
    s = ''
    i += 1
    while i > 0:
        i, r = divmod(i - 1, 26)
        s = chr(ord('a') + r) + s
    return 'sd' + s


# A SAS JBOD as mpt3sas shows it: 1,000 disks per HBA, 60 bays per expander.
PER_HOST = 1000
PER_EXPANDER = 60


def hctl(i):
    return '%d:0:%d:0' % (2 + i // PER_HOST, i % PER_HOST)


def wwn(i):
    return '5000c500%08x' % (0xa1b20000 + i)


def serial(i):
    return 'Z1Z%05dS' % i


def alias(i):
    return 'bay%05d' % (i + 1)


def devnum(i):
    # sd_major() and the minor of sd_probe(): 16 majors of 16 disks, then
    # the disk index's high bits in the minor (extended minors).
    majors = [8] + list(range(65, 72)) + list(range(128, 136))
    return majors[(i & 0xf0) >> 4], ((i & 0xf) << 4) | (i & 0xfff00)


def sysroot(root, n):
    def write(path, text):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text + '\n')

    def link(path, target):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink(os.path.relpath(target, os.path.dirname(path)), path)

    def attrs(d, values):
        for k, v in values.items():
            write(os.path.join(d, k), v)

    sys_ = os.path.join(root, 'sys')
    for d in ('bus/scsi', 'bus/pci', 'class/block', 'block', 'dev/block', 'class/sas_device'):
        os.makedirs(os.path.join(sys_, d), exist_ok=True)
    for d in ('run/udev/data', 'dev/disk/by-id', 'dev/disk/by-path'):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    # The kernel's uevent count, by which a snapshot of the devices is known to be current.
    write(os.path.join(sys_, 'kernel/uevent_seqnum'), str(4 * n + 1000))
    seq = 0
    for i in range(n):
        h = hctl(i)
        host, _, target, _ = (int(x) for x in h.split(':'))
        exp = target // PER_EXPANDER
        phy = target % PER_EXPANDER
        hba = os.path.join(sys_, 'devices/pci0000:00/0000:00:03.%d' % (host - 2),
                           '0000:%02x:00.0' % (host + 1))
        if not os.path.exists(hba):
            attrs(hba, {'vendor': '0x1000', 'device': '0x0097', 'class': '0x010700'})
            link(hba + '/subsystem', sys_ + '/bus/pci')
            attrs(hba + '/host%d/scsi_host/host%d' % (host, host), {'proc_name': 'mpt3sas'})
        hostdir = hba + '/host%d' % host
        expdir = hostdir + '/port-%d:%d/expander-%d:%d' % (host, exp, host, exp)
        end = expdir + '/port-%d:%d:%d/end_device-%d:%d:%d' % (host, exp, phy, host, exp, phy)
        sas_addr = '0x5000c500%08x' % (0xb0000000 + i)
        attrs(end + '/sas_device/end_device-%d:%d:%d' % (host, exp, phy), {
            'sas_address': sas_addr, 'bay_identifier': str(phy),
            'enclosure_identifier': '0x500605b0%08x' % (host * 1000 + exp)})
        sdev = end + '/target%d:0:%d/%s' % (host, target, h)
        attrs(sdev, {'wwid': 'naa.' + wwn(i), 'model': 'ST4000NM0023    ',
                     'vendor': 'SEAGATE ', 'rev': '0004', 'sas_address': sas_addr,
                     'state': 'running', 'type': '0', 'queue_depth': '254'})
        # The unit serial number VPD page, as the kernel exports it.
        sn = serial(i).encode()
        with open(sdev + '/vpd_pg80', 'wb') as f:
            f.write(bytes([0, 0x80, 0, len(sn)]) + sn)
        link(sdev + '/subsystem', sys_ + '/bus/scsi')
        k = kname(i)
        major, minor = devnum(i)
        seq += 1
        blk = os.path.join(sdev, 'block', k)
        attrs(blk, {'dev': '%d:%d' % (major, minor), 'size': '7814037168', 'ro': '0',
                    'removable': '0', 'hidden': '0', 'diskseq': str(seq),
                    'range': '16', 'ext_range': '256',
                    'uevent': 'MAJOR=%d\nMINOR=%d\nDEVNAME=%s\nDEVTYPE=disk\nDISKSEQ=%d' % (
                        major, minor, k, seq)})
        link(blk + '/device', sdev)
        link(os.path.join(sys_, 'class/block', k), blk)
        link(os.path.join(sys_, 'block', k), blk)
        link(os.path.join(sys_, 'dev/block', '%d:%d' % (major, minor)), blk)
        path = 'pci-0000:%02x:00.0-sas-exp0x500605b0%08x-phy%d-lun-0' % (
            host + 1, host * 1000 + exp, phy)
        db = ['S:disk/by-id/wwn-0x' + wwn(i), 'S:disk/by-id/scsi-3' + wwn(i),
              'S:disk/by-id/scsi-SSEAGATE_ST4000NM0023_' + serial(i), 'S:disk/by-path/' + path,
              'I:%d' % (1000000 + i), 'E:ID_SCSI=1', 'E:ID_VENDOR=SEAGATE',
              'E:ID_MODEL=ST4000NM0023', 'E:ID_REVISION=0004', 'E:ID_TYPE=disk',
              'E:ID_SERIAL=3' + wwn(i), 'E:ID_SERIAL_SHORT=' + wwn(i),
              'E:ID_WWN=0x' + wwn(i), 'E:ID_WWN_WITH_EXTENSION=0x' + wwn(i),
              'E:ID_SCSI_SERIAL=' + serial(i), 'E:ID_BUS=scsi', 'E:ID_PATH=' + path,
              'E:ID_PATH_TAG=' + re.sub(r'[^A-Za-z0-9]', '_', path),
              'E:ID_PART_TABLE_TYPE=gpt', 'G:systemd', 'Q:systemd', 'V:1']
        write(os.path.join(root, 'run/udev/data/b%d:%d' % (major, minor)), '\n'.join(db))
        for l in db:
            if l.startswith('S:'):
                link(os.path.join(root, 'dev', l[2:]), os.path.join(root, 'dev', k))
        for p in (1, 2):
            part = os.path.join(blk, '%s%d' % (k, p))
            attrs(part, {'dev': '%d:%d' % (major, minor + p), 'partition': str(p),
                         'start': str(2048 if p == 1 else 1050624), 'size': '1048576',
                         'ro': '0', 'uevent': 'MAJOR=%d\nMINOR=%d\nDEVNAME=%s%d\nDEVTYPE=partition\n'
                         'PARTN=%d' % (major, minor + p, k, p, p)})
            link(os.path.join(sys_, 'class/block', '%s%d' % (k, p)), part)
            link(os.path.join(sys_, 'dev/block', '%d:%d' % (major, minor + p)), part)
            write(os.path.join(root, 'run/udev/data/b%d:%d' % (major, minor + p)), '\n'.join(
                ['S:disk/by-id/wwn-0x%s-part%d' % (wwn(i), p),
                 'S:disk/by-path/%s-part%d' % (path, p), 'E:ID_WWN=0x' + wwn(i),
                 'E:ID_PART_ENTRY_NUMBER=%d' % p, 'E:ID_PART_ENTRY_UUID=%08x-0000-4000-8000-%012x' % (i, p),
                 'E:ID_FS_TYPE=ext4', 'E:ID_PATH=' + path, 'G:systemd', 'V:1']))


def log(mb, n, share=0.2):
    rnd = random.Random(4)
    other = [
        'usb 1-1: new high-speed USB device number %d using xhci_hcd',
        'e1000e 0000:00:1f.6 eno1: NIC Link is Up 1000 Mbps Full Duplex, Flow Control: Rx/Tx, irq %d',
        'audit: type=1400 audit(1700000000.%d:45): apparmor="STATUS" operation="profile_load" name="/usr/bin/man"',
        'systemd[1]: Started Journal Service (pid %d).',
        'IPv6: ADDRCONF(NETDEV_CHANGE): eno1: link becomes ready %d',
        'perf: interrupt took too long (%d > 2500), lowering kernel.perf_event_max_sample_rate to 79750',
    ]
    disk = [
        'sd {h}: [{k}] tag#{n} FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_OK cmd_age=0s',
        'sd {h}: [{k}] tag#{n} Sense Key : Medium Error [current]',
        'critical medium error, dev {k}, sector {n} op 0x0:(READ) flags 0x0 phys_seg 1 prio class 2',
        'Buffer I/O error on dev {k}1, logical block {n}, async page read',
        'EXT4-fs ({k}2): mounted filesystem with ordered data mode. Quota mode: none.',
        ' {k}: {k}1 {k}2',
        'md/raid1:md127: Disk failure on {k}1, disabling device.',
    ]
    # A unique block of lines, repeated to the size asked for.
    lines = []
    size = 0
    t = 0
    while size < 16 << 20:
        t += rnd.randrange(1, 5000)
        stamp = '[%5d.%06d] ' % (t // 1000000, t % 1000000)
        # A share of the lines names a disk: one in five by default, as in
        # the kernel log recorded for the golden tests
        # (tests/fixtures/logs/dmesg: 50 of 235 lines); a dense error log
        # (a failing disk's, an md resync's) has most.
        if rnd.random() < share:
            i = rnd.randrange(n)
            line = stamp + rnd.choice(disk).format(h=hctl(i), k=kname(i), n=rnd.randrange(1 << 20))
        else:
            line = stamp + rnd.choice(other) % rnd.randrange(100000)
        lines.append(line)
        size += len(line) + 1
    block = ('\n'.join(lines) + '\n').encode()
    out = sys.stdout.buffer
    for _ in range(max(1, (mb << 20) // len(block))):
        out.write(block)


def main():
    what = sys.argv[1]
    if what == 'sysroot':
        sysroot(sys.argv[2], int(sys.argv[3]))
    elif what == 'table':
        for i in range(int(sys.argv[2])):
            print('alias %s wwn:0x%s' % (alias(i), wwn(i)))
    elif what == 'sed':
        for i in range(int(sys.argv[2])):
            print(r's/\b%s\b/%s/g' % (kname(i), alias(i)))
    elif what == 'perlmap':
        for i in range(int(sys.argv[2])):
            print('%s\t%s' % (kname(i), alias(i)))
            print('%s\t%s' % (hctl(i), alias(i)))
            for part in (1, 2):
                print('%s%d\t%sp%d' % (kname(i), part, alias(i), part))
    elif what == 'log':
        log(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]) if len(sys.argv) > 4 else 0.2)


main()
