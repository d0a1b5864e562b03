# Sourced by the guests' second stages (kernel-matrix.d/guest, slurm-multinode.d/guest),
# which the host copies this file beside in the results share.
#
# own_tmp_keeping PATH...: a fresh tmpfs on /tmp and /var/tmp, the guest's own, with each
# PATH under /tmp (a checkout or build tree there: a fresh clone, a CI runner) still at its
# place, bound from the host's root, which the tmpfs would otherwise hide.
own_tmp_keeping() {
  local path host_tmp=/run/kernel-matrix/host-tmp
  mkdir -p "$host_tmp" && mount --bind /tmp "$host_tmp" || return 1
  mount -t tmpfs -o mode=1777 tmpfs /tmp || return 1
  mount -t tmpfs -o mode=1777 tmpfs /var/tmp || return 1
  for path in "$@"; do
    case $path in
      /tmp/*)
        mkdir -p "$path" && mount --bind "$host_tmp/${path#/tmp/}" "$path" || return 1
        ;;
    esac
  done
}
