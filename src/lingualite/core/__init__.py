"""Below everything: errors, atomic files and locks, folder ownership, strict JSON, the CPUs and the device, GPU
usage, prefetching, and the one progress writer."""
