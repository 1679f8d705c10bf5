// Every flag of ens-train --help is described in docs/ens-train.md, the
// user's guide (but LLVM's own --help, --help-list and --version).
//
// RUN: ens-train --help | grep -o -e '^ *--[a-z0-9-]*' | tr -d ' ' | sort -u | grep -v -x -e '--help' -e '--help-list' -e '--version' > %t.flags
// RUN: count 36 < %t.flags
// RUN: while read flag; do grep -q -e "$flag" %ens_src_root/docs/ens-train.md || { echo "undocumented: $flag"; exit 1; }; done < %t.flags
