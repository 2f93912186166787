/* The vmlinux BTF of a cached kernel image, so `check --kernel V` relocates
 * CO-RE and resolves kfuncs/ksyms against kernel V (what its
 * /sys/kernel/btf/vmlinux holds) instead of the host's.
 *
 * A bzImage is real-mode setup code followed by the protected-mode part, whose
 * header gives the compressed vmlinux: payload_offset (u32 at 0x248, from the
 * start of the protected-mode code, (setup_sects + 1) * 512 bytes into the
 * file; setup_sects at 0x1f1, 0 meaning 4) and payload_length (u32 at 0x24c),
 * boot protocol 2.08 and later (x86 boot.rst). The payload is decompressed
 * with the system's own tool (xz, zstd, gzip, lz4, bzip2 by its magic), and
 * the ELF's .BTF section (allocated: it stays in the stripped image) is the
 * raw BTF the running kernel exports. Written once as kernels/VER/vmlinux.btf
 * (a temporary name, then rename: concurrent callers are safe). */
#include <errno.h>
#include <elf.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cc/spawn.h"
#include "kvm/kvm.h"

static uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The decompressor for a payload's magic, or NULL. */
static const char *decompressor(const unsigned char *p, size_t n)
{
	static const struct {
		const char *tool;
		unsigned char magic[6];
		size_t len;
	} fmts[] = {
		{"xz", {0xfd, '7', 'z', 'X', 'Z', 0}, 6},
		{"zstd", {0x28, 0xb5, 0x2f, 0xfd}, 4},
		{"gzip", {0x1f, 0x8b}, 2},
		{"lz4", {0x02, 0x21, 0x4c, 0x18}, 4},
		{"bzip2", {'B', 'Z', 'h'}, 3},
	};

	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		if (n >= fmts[i].len && !memcmp(p, fmts[i].magic, fmts[i].len))
			return fmts[i].tool;
	return NULL;
}

/* The .BTF section of a 64-bit little-endian ELF image in memory. */
static int elf_btf(const unsigned char *e, size_t n, const unsigned char **btf, size_t *len)
{
	const Elf64_Ehdr *h = (const Elf64_Ehdr *)e;
	const Elf64_Shdr *sh, *str;

	if (n < sizeof(*h) || memcmp(e, ELFMAG, SELFMAG) || e[EI_CLASS] != ELFCLASS64 ||
	    h->e_shentsize != sizeof(Elf64_Shdr) || h->e_shoff > n ||
	    (n - h->e_shoff) / sizeof(Elf64_Shdr) < h->e_shnum || h->e_shstrndx >= h->e_shnum)
		return -ENOEXEC;
	sh = (const Elf64_Shdr *)(e + h->e_shoff);
	str = &sh[h->e_shstrndx];
	if (str->sh_offset > n || str->sh_size > n - str->sh_offset)
		return -ENOEXEC;
	for (unsigned i = 0; i < h->e_shnum; i++) {
		if (sh[i].sh_name >= str->sh_size ||
		    strncmp((const char *)e + str->sh_offset + sh[i].sh_name, ".BTF",
			    str->sh_size - sh[i].sh_name) ||
		    sh[i].sh_type == SHT_NOBITS)
			continue;
		if (sh[i].sh_offset > n || sh[i].sh_size > n - sh[i].sh_offset || sh[i].sh_size < 24)
			return -ENOEXEC;
		*btf = e + sh[i].sh_offset;
		*len = sh[i].sh_size;
		return 0;
	}
	return -ENOENT;
}

static int write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(p, 1, n, f) == n;

	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -EIO;
}

int bg_kcache_btf(const char *root, const char *ver, char *path, size_t n, char *err, size_t errlen)
{
	struct bg_kimage k;
	char payload[PATH_MAX], elf[PATH_MAX], tmp[PATH_MAX];
	unsigned char *img = NULL, *vml = NULL;
	const unsigned char *btf;
	size_t ilen = 0, vlen = 0, blen;
	const char *tool;
	uint32_t setup, off, plen;
	int e;

	err[0] = 0;
	if ((e = bg_kcache_get(root, ver, &k))) {
		snprintf(err, errlen, "kernel %s is not in the cache (bpfgate kernels fetch %s)", ver, ver);
		return e;
	}
	snprintf(path, n, "%s/kernels/%s/vmlinux.btf", root, ver);
	if (!access(path, R_OK))
		return 0;
	if (!(img = (unsigned char *)bg_read_file(k.vmlinuz, &ilen))) {
		snprintf(err, errlen, "cannot read %s: %s", k.vmlinuz, strerror(errno));
		return -errno ? -errno : -EIO;
	}
	e = -ENOEXEC;
	if (ilen < 0x250 || memcmp(img + 0x202, "HdrS", 4) || (img[0x206] | img[0x207] << 8) < 0x208) {
		snprintf(err, errlen, "%s: not a bzImage of boot protocol 2.08 or later", k.vmlinuz);
		goto out;
	}
	setup = (img[0x1f1] ? img[0x1f1] : 4) + 1;
	off = setup * 512 + rd32(img + 0x248);
	plen = rd32(img + 0x24c);
	if (off >= ilen || plen > ilen - off || !(tool = decompressor(img + off, plen))) {
		snprintf(err, errlen, "%s: no compressed kernel payload of a known format at %u", k.vmlinuz,
			 off);
		goto out;
	}
	snprintf(payload, sizeof(payload), "%s.payload.%d", path, (int)getpid());
	snprintf(elf, sizeof(elf), "%s.elf.%d", path, (int)getpid());
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	if ((e = write_file(payload, img + off, plen))) {
		snprintf(err, errlen, "cannot write %s", payload);
		goto out;
	}
	{
		char *av[] = {(char *)tool, (char *)"-dc", payload, NULL};
		/* the exit status is not trusted either way: some tools complain about
		 * the padding after the stream; the ELF check below decides */
		int rc = bg_spawn(av, elf, NULL, 300);

		unlink(payload);
		vml = (unsigned char *)bg_read_file(elf, &vlen);
		unlink(elf);
		if (rc < 0 || !vml || !vlen) {
			snprintf(err, errlen, "cannot decompress the kernel in %s with %s (%s)", k.vmlinuz, tool,
				 rc < 0 ? strerror(-rc) : "no output; is it installed?");
			e = rc < 0 ? rc : -ENOEXEC;
			goto out;
		}
	}
	if ((e = elf_btf(vml, vlen, &btf, &blen))) {
		snprintf(err, errlen, "%s: %s", k.vmlinuz,
			 e == -ENOENT ? "the kernel has no .BTF section (built without CONFIG_DEBUG_INFO_BTF)"
				      : "the decompressed kernel is not a valid ELF file");
		goto out;
	}
	if ((e = write_file(tmp, btf, blen)) || (rename(tmp, path) && (e = -errno))) {
		unlink(tmp);
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-e));
	}
out:
	free(img);
	free(vml);
	return e;
}
