#!/bin/sh
# Checks that third_party/go-nvml is upstream go-nvml at $version, file for
# file, except for the one line README.gpureport.md describes.
set -eu
version=v0.13.3-0
here=$(cd "$(dirname "$0")" && pwd)
json=$(cd "$here" && GOFLAGS=-mod=mod go mod download -json "github.com/NVIDIA/go-nvml@$version")
up=$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$up" ] || [ ! -d "$up" ]; then
	printf '%s\n' "$json"
	echo "third-party: cannot download github.com/NVIDIA/go-nvml@$version" >&2
	exit 1
fi
status=0
cd "$here"
for f in $(find LICENSE pkg -type f | sort); do
	if [ "$f" = pkg/nvml/nvml.go ]; then
		if ! grep -vx '#cgo CFLAGS: -Wno-deprecated-declarations' "$f" | cmp -s - "$up/$f"; then
			echo "third-party: $f differs from upstream beyond the one added line:" >&2
			grep -vx '#cgo CFLAGS: -Wno-deprecated-declarations' "$f" | diff "$up/$f" - >&2 || true
			status=1
		fi
	elif ! cmp -s "$f" "$up/$f"; then
		echo "third-party: $f differs from upstream $version:" >&2
		diff "$up/$f" "$f" >&2 || true
		status=1
	fi
done
exit $status
