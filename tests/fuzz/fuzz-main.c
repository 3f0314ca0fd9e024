// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A driver for fuzz targets without libFuzzer: runs each corpus file given
 * on the command line, then a fixed number of deterministic mutations of
 * them (byte flips, inserts, truncations, splices), so a smoke run is
 * repeatable and bounded.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const char interesting[] = "alias \"\\#:\n\t\r\0x.-_+pP0123456789sdnvme";

int main(int argc, char **argv)
{
	struct strv inputs = {};
	size_t *lens = calloc(argc, sizeof(*lens));
	unsigned long iterations =
		strtoul(getenv("FUZZ_ITERATIONS") ? getenv("FUZZ_ITERATIONS") : "20000", NULL, 10);

	for (int i = 1; i < argc; i++) {
		char *buf;
		size_t len;

		if (read_file(argv[i], &buf, &len) < 0) {
			fprintf(stderr, "%s: cannot read\n", argv[i]);
			return 1;
		}
		lens[inputs.n] = len;
		strv_consume(&inputs, buf);
		LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	}
	if (!inputs.n)
		return 0;
	for (unsigned long it = 0; it < iterations; it++) {
		size_t k = next() % inputs.n, len = lens[k], n = len + 64;
		uint8_t *buf = malloc(n);
		int ops = 1 + next() % 8;

		memcpy(buf, inputs.v[k], len);
		while (ops--) {
			size_t pos = len ? next() % len : 0;

			switch (next() % 5) {
			case 0:
				if (len)
					buf[pos] ^= 1 << (next() % 8);
				break;
			case 1:
				if (len < n) {
					memmove(buf + pos + 1, buf + pos, len - pos);
					buf[pos] = interesting[next() % (sizeof(interesting) - 1)];
					len++;
				}
				break;
			case 2:
				len = pos;
				break;
			case 3:
				if (len)
					buf[pos] = interesting[next() % (sizeof(interesting) - 1)];
				break;
			case 4:
				if (len)
					memmove(buf + pos, buf + pos + 1, len - pos - 1), len--;
				break;
			}
		}
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	printf("%zu inputs, %lu mutations: no failure\n", inputs.n, iterations);
	strv_free(&inputs);
	free(lens);
	return 0;
}
