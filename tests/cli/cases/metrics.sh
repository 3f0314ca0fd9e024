# diskalias metrics: what node_exporter's textfile collector reads. Checked
# by the Prometheus project's own parser (python3-prometheus-client) and by
# node_exporter itself reading the file --textfile writes.
fixture sas-jbod24
table <<'T'
alias bay00 wwn:0x5000c500a1b2c3d4
alias bay01 path:pci-0000:01:00.0-sas-phy1-lun-0
alias quoted label:"a \"b\" \\c"
alias bay02 wwn:0x5000c500a1b2c3f6
alias log-disk wwn:0x5000c500a1b2c3f6
alias spare wwn:0x5000c50000000001
alias typo wwn:
T
da metrics
# Every line parses; the info series joins on device.
"$bin" metrics 2>/dev/null >metrics.txt
/usr/bin/python3 - metrics.txt <<'PY'
import sys
from prometheus_client.parser import text_string_to_metric_families
fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
print("families:", " ".join(sorted(fams)))
for s in fams["diskalias_disk_info"].samples:
    print("info", s.labels["device"], s.labels["alias"], s.labels["aliases"], s.labels["slot"] or "-", s.value)
for s in fams["diskalias_alias_present"].samples:
    print("present", s.labels["alias"], repr(s.labels["identity"]), s.value)
print("missing", fams["diskalias_aliases_missing"].samples[0].value,
      "problems", fams["diskalias_table_problems"].samples[0].value)
PY
# --textfile: the same text, written whole; no temporary file left beside it.
mkdir textfile
da metrics --textfile textfile
cmp metrics.txt textfile/diskalias.prom && echo "textfile: same as stdout"
ls -A textfile
da metrics --textfile missing-dir
da metrics extra
# node_exporter reads the file: our series, and no textfile error.
port=$((20000 + RANDOM % 20000))
node_exporter=$(command -v prometheus-node-exporter ||
	echo /var/cache/diskalias/node-exporter/usr/bin/prometheus-node-exporter)
"$node_exporter" --web.listen-address=127.0.0.1:$port --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory=textfile >node_exporter.log 2>&1 &
pid=$!
for i in $(seq 50); do
	/usr/bin/python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('http://127.0.0.1:$port/metrics').read().decode())" >scrape.txt 2>/dev/null && break
	sleep 0.1
done
kill $pid
wait $pid 2>/dev/null
# (node_exporter sorts the labels by name)
grep -E '^(diskalias_disk_info\{.*device="sda"|diskalias_alias_present\{alias="quoted"|node_textfile_scrape_error)' scrape.txt
