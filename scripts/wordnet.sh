#!/usr/bin/env bash
# Derives knowledge/wordnet.txt (English synonym groups, antonyms, irregular
# forms for the knowledge thesaurus) from Debian's wordnet-base at a pinned
# version. The derived file is committed; run this only to derive it again
# (make test does not need it). Needs root for apt-get.
set -euo pipefail
version="1:3.0-37"
cd "$(dirname "$0")/.."
if [ "$(dpkg-query -W -f='${Version}' wordnet-base 2>/dev/null || true)" != "$version" ]; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "wordnet-base=$version"
fi
go run knowledge/wordnet_gen.go -dict /usr/share/wordnet -version "$version" -out knowledge/wordnet.txt
echo "knowledge/wordnet.txt: $(grep -vc '^#' knowledge/wordnet.txt) lines from wordnet-base $version"
