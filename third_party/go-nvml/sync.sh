#!/bin/sh
# third_party/go-nvml is upstream go-nvml at the version the top-level
# go.mod's replace line names, holding only what the build compiles, plus
# the one line README.gpureport.md explains.
#
#   sync.sh check            check the copy against upstream, file for file
#   sync.sh update VERSION   replace the copy with upstream VERSION (and the
#                            line), and point go.mod at it
#
# Upstream comes from the module proxy, verified against the checksum
# database, as `go mod download` fetches it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
line='#cgo CFLAGS: -Wno-deprecated-declarations'
# The files the build compiles: no tests, no mocks.
compiled() { find LICENSE pkg/dl pkg/nvml -maxdepth 1 -type f ! -name '*_test.go' | sort; }

# upstream VERSION prints the folder of upstream go-nvml at VERSION.
upstream() {
	json=$(cd "$here" && GOFLAGS=-mod=mod go mod download -json "github.com/NVIDIA/go-nvml@$1")
	up=$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	if [ -z "$up" ] || [ ! -d "$up" ]; then
		printf '%s\n' "$json" >&2
		echo "third-party: cannot download github.com/NVIDIA/go-nvml@$1" >&2
		exit 1
	fi
	printf '%s\n' "$up"
}

pinned=$(sed -n 's|^replace github.com/NVIDIA/go-nvml \(v[^ ]*\) => ./third_party/go-nvml$|\1|p' "$root/go.mod")
if [ -z "$pinned" ]; then
	echo "third-party: go.mod has no replace line for github.com/NVIDIA/go-nvml" >&2
	exit 1
fi

case "${1:-check}" in
check)
	up=$(upstream "$pinned")
	status=0
	cd "$here"
	if [ "$(compiled)" != "$(cd "$up" && compiled)" ]; then
		echo "third-party: the files differ from upstream $pinned's compiled files" >&2
		status=1
	fi
	for f in $(compiled); do
		if [ "$f" = pkg/nvml/nvml.go ]; then
			if ! grep -vxF "$line" "$f" | cmp -s - "$up/$f"; then
				echo "third-party: $f differs from upstream beyond the one added line:" >&2
				grep -vxF "$line" "$f" | diff "$up/$f" - >&2 || true
				status=1
			fi
		elif ! cmp -s "$f" "$up/$f"; then
			echo "third-party: $f differs from upstream $pinned:" >&2
			diff "$up/$f" "$f" >&2 || true
			status=1
		fi
	done
	exit $status
	;;
update)
	version=${2:?usage: sync.sh update VERSION}
	up=$(upstream "$version")
	cd "$here"
	rm -rf LICENSE pkg
	(cd "$up" && compiled) | while read -r f; do
		mkdir -p "$(dirname "$f")"
		cp "$up/$f" "$f"
		chmod 644 "$f"
	done
	# The line goes after the preamble's last #cgo CFLAGS line.
	n=$(grep -n '^#cgo CFLAGS:' pkg/nvml/nvml.go | tail -1 | cut -d: -f1)
	if [ -z "$n" ]; then
		echo "third-party: pkg/nvml/nvml.go of $version has no #cgo CFLAGS line to add to" >&2
		exit 1
	fi
	sed -i "${n}a\\
$line" pkg/nvml/nvml.go
	# Upstream's go.mod less its test-only requirements.
	printf 'module github.com/NVIDIA/go-nvml\n\n%s\n' "$(grep '^go ' "$up/go.mod")" >go.mod
	cd "$root"
	go mod edit -dropreplace="github.com/NVIDIA/go-nvml@$pinned" \
		-require="github.com/NVIDIA/go-nvml@$version" \
		-replace="github.com/NVIDIA/go-nvml@$version=./third_party/go-nvml"
	echo "third_party/go-nvml is upstream $version plus the line; run make third-party"
	;;
*)
	echo "usage: sync.sh check | sync.sh update VERSION" >&2
	exit 2
	;;
esac
