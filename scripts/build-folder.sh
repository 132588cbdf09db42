# Removes the folders a root-file-system build worked in. mmdebstrap mounts proc, sys, dev/pts and
# dev/shm in the root it builds and unmounts them at its end; a build that was killed leaves them
# mounted. Sourced:
#   source scripts/build-folder.sh; remove_build_folder DIR...
# Unmounts whatever is mounted under each DIR (deepest first), then removes it without ever
# crossing a mount point, so a mount left behind is never emptied through. Uses $sudo when set.
remove_build_folder() {
  local dir mnt
  for dir in "$@"; do
    [ -e "$dir" ] || continue
    dir=$(realpath "$dir")
    awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/self/mounts | sort -r |
      while read -r mnt; do ${sudo:-} umount -l "$mnt" || true; done
    ${sudo:-} rm -rf --one-file-system "$dir"
  done
}
