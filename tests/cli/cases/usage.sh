# Wrong usage exits 2; help and version exit 0.
fixture host-virtio
da
da frobnicate
da --bogus list
da set onlyname
da set a b c
da set --by color x vda
da set --by wwn x wwn:1
da rename a
da unset
da resolve
da name
da check extra
da -V | sed 's/[0-9][0-9.]*/VERSION/'
da --help | head -3
da list --help | head -2
# help: the tool's, a command's (with the global options), a near miss.
da help | tail -n 3
da help check
da help lsit
da lsit
da sett x vda
da filter -a -r
