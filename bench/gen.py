#!/usr/bin/env python3
# bench/gen.py - inputs for bench/run: a machine with N SCSI disks, its alias
# table, the sed and perl equivalents, and a large kernel log naming them.
#
#   gen.py sysroot DIR N      N disks sda.. (H:C:T:L and a WWN each) under DIR
#   gen.py table N            the alias table: bay00001.. bound to the WWNs
#   gen.py sed N              one whole-word s///g per alias, kernel name -> alias
#   gen.py perlmap N          "name<TAB>alias" lines: kernel names, partitions 1 and 2, SCSI addresses
#   gen.py log MB N           about MB megabytes of kernel log lines, one in five naming disks
import os
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


def hctl(i):
    return '%d:0:%d:0' % (2 + i // 1000, i % 1000)


def wwn(i):
    return '5000c500%08x' % (0xa1b20000 + i)


def alias(i):
    return 'bay%05d' % (i + 1)


def sysroot(root, n):
    def write(path, text):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text + '\n')

    def link(path, target):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink(os.path.relpath(target, os.path.dirname(path)), path)

    for d in ('sys/bus/scsi', 'sys/class/block'):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    for i in range(n):
        h = hctl(i)
        host = 'host%s' % h.split(':')[0]
        sdev = os.path.join(root, 'sys/devices/pci0000:00/0000:00:10.0', host,
                            'target' + h.rsplit(':', 1)[0], h)
        write(sdev + '/wwid', 'naa.' + wwn(i))
        write(sdev + '/model', 'ST4000NM0023')
        link(sdev + '/subsystem', os.path.join(root, 'sys/bus/scsi'))
        blk = os.path.join(sdev, 'block', kname(i))
        write(blk + '/dev', '%d:%d' % (8 + i // 16, (i % 16) * 16))
        write(blk + '/size', '7814037168')
        link(blk + '/device', sdev)
        link(os.path.join(root, 'sys/class/block', kname(i)), blk)


def log(mb, n):
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
        # One line in five names a disk, as in the kernel log recorded for
        # the golden tests (tests/fixtures/logs/dmesg: 50 of 235 lines).
        if rnd.random() < 0.2:
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
        log(int(sys.argv[2]), int(sys.argv[3]))


main()
