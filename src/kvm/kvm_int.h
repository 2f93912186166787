/* Pieces of src/kvm shared between its files only. */
#ifndef BG_KVM_KVM_INT_H
#define BG_KVM_KVM_INT_H
#include "kvm/kvm.h"

/* Write the guest's initrd to path: busybox, /init, loader (+ its shared
 * libraries), objs as /o/NNNNNN.o; loader_args go to `kload --records`. */
int bg_kvm_initrd(const char *path, const char *loader, const char *const *objs, size_t nobj,
		  const char *loader_args, char *err, size_t errlen);
#endif
