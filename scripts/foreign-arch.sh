# Lets this machine run another architecture's binaries for a build (a Debian bootstrap's
# maintainer scripts, the JVM that makes the probe's class-data-sharing archive) through qemu-user
# and binfmt_misc, and undoes what it set up. Sourced, after scripts/prerequisites.sh:
#   source scripts/foreign-arch.sh; foreign_arch_enable arm64; ...; foreign_arch_release
# (this machine's own architecture needs nothing: foreign_arch_enable does nothing for it)
# The registration has the F flag (Debian's qemu-user-static): the kernel opens the interpreter
# when it is registered, so binaries run inside a chroot that has no qemu of its own. Builds that
# overlap share it: each holds a shared lock while it runs, and the one that registered it
# unregisters it only when no other build holds the lock (else it stays registered).
_foreign_arch_undo=()
_foreign_arch_lock=/run/lock/rdma-storage-operator-foreign-arch.lock

foreign_arch_enable() {
  local arch=$1 qemu
  [ "$arch" != "$(dpkg --print-architecture)" ] || return 0
  case "$arch" in
    arm64) qemu=aarch64 ;;
    amd64) qemu=x86_64 ;;
    *) echo "foreign-arch: no qemu-user for '$arch'" >&2; return 1 ;;
  esac
  exec 8>>"$_foreign_arch_lock"
  flock -s 8
  if ! command -v update-binfmts >/dev/null || [ ! -e "/usr/share/binfmts/qemu-$qemu" ]; then
    apt_install qemu-user-static binfmt-support
    # the packages register it for good; this build registered it, so it unregisters it
    _foreign_arch_undo+=("update-binfmts --disable qemu-$qemu")
  fi
  # mmdebstrap refuses a foreign architecture without arch-test ("install arch-test for foreign
  # architecture support"), a recommendation apt_install leaves out
  command -v arch-test >/dev/null || apt_install arch-test
  if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    ${sudo:-} mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    _foreign_arch_undo+=("umount /proc/sys/fs/binfmt_misc")
  fi
  if [ "$(head -1 "/proc/sys/fs/binfmt_misc/qemu-$qemu" 2>/dev/null)" != enabled ]; then
    ${sudo:-} update-binfmts --enable "qemu-$qemu"
    _foreign_arch_undo+=("update-binfmts --disable qemu-$qemu")
  fi
}

# in reverse order, each once; nothing while another build holds the lock
foreign_arch_release() {
  local i seen=" "
  if [ ${#_foreign_arch_undo[@]} -gt 0 ] && ! flock -x -n 8 2>/dev/null; then
    echo "foreign-arch: another build uses qemu-user; left registered" >&2
    _foreign_arch_undo=()
    return 0
  fi
  for ((i = ${#_foreign_arch_undo[@]} - 1; i >= 0; i--)); do
    case "$seen" in *" ${_foreign_arch_undo[i]} "*) continue ;; esac
    seen="$seen${_foreign_arch_undo[i]} "
    ${sudo:-} ${_foreign_arch_undo[i]} >/dev/null 2>&1 || true
  done
  _foreign_arch_undo=()
}
