/* Pieces of src/kvm shared between its files only. */
#ifndef BG_KVM_KVM_INT_H
#define BG_KVM_KVM_INT_H
#include "kvm/kvm.h"

/* Write the guest's initrd to path: busybox, /init, loader (+ its shared
 * libraries), objs as /o/NNNNNN.o; loader_args go to `kload --records`.
 * config (NULL or an empty file: none): the image's kernel configuration,
 * put at /boot/config-RELEASE as on an installed system, so the loader
 * resolves __kconfig externs (CONFIG_HZ...) as libbpf would there. */
int bg_kvm_initrd(const char *path, const char *loader, const char *const *objs, size_t nobj,
		  const char *loader_args, const char *config, const char *release, char *err,
		  size_t errlen);
#endif
