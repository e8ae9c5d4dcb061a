//go:build ignore

// wordnet_gen derives knowledge/wordnet.txt from Princeton WordNet 3.0 as
// Debian's wordnet-base package installs it (scripts/wordnet.sh pins the
// version and runs this): synonym groups, irregular forms and antonyms of
// single English words, kept to each word's most frequent senses so that a
// group says what its words usually mean, not what they can mean.
//
//	go run knowledge/wordnet_gen.go -dict /usr/share/wordnet -out knowledge/wordnet.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// topSenses is how many of a word's senses (WordNet lists them most
// frequent first) may put it in a group: its first two, and only the
// senses seen in WordNet's tagged corpus when it has any.
const topSenses = 2

var posNames = []struct{ file, pos string }{{"noun", "n"}, {"verb", "v"}, {"adj", "a"}, {"adv", "r"}}

func main() {
	dict := flag.String("dict", "/usr/share/wordnet", "WordNet dict directory")
	out := flag.String("out", "knowledge/wordnet.txt", "file to write")
	version := flag.String("version", "", "the wordnet-base package version, for the header")
	flag.Parse()

	var lines []string
	groups, antonyms := 0, map[string]bool{}
	for _, p := range posNames {
		top := topOf(filepath.Join(*dict, "index."+p.file))
		syn := readData(filepath.Join(*dict, "data."+p.file))
		offs := make([]string, 0, len(syn))
		for off := range syn {
			offs = append(offs, off)
		}
		sort.Strings(offs)
		for _, off := range offs {
			s := syn[off]
			var members []string
			for _, w := range s.words {
				if top[w][off] && plainWord(w) {
					members = append(members, w)
				}
			}
			members = dedup(members)
			if len(members) >= 2 {
				lines = append(lines, fmt.Sprintf("%s%s %s", p.pos, off, strings.Join(members, ",")))
				groups++
			}
			for _, a := range s.antonyms {
				t, ok := syn[a.off]
				if !ok || a.src < 1 || a.src > len(s.words) || a.dst < 1 || a.dst > len(t.words) {
					continue
				}
				x, y := s.words[a.src-1], t.words[a.dst-1]
				if top[x][off] && top[y][a.off] && plainWord(x) && plainWord(y) {
					if x > y {
						x, y = y, x
					}
					antonyms["! "+x+","+y] = true
				}
			}
		}
	}
	var anto []string
	for a := range antonyms {
		anto = append(anto, a)
	}
	sort.Strings(anto)
	var exc []string
	for _, p := range posNames {
		exc = append(exc, exceptions(filepath.Join(*dict, p.file+".exc"))...)
	}
	sort.Strings(exc)
	exc = dedup(exc)

	f, err := os.Create(*out)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, `# wordnet.txt: derived from Princeton WordNet 3.0 (Debian package wordnet-base %s)
# by knowledge/wordnet_gen.go, run by scripts/wordnet.sh; do not edit by hand.
# "<pos><offset> a,b,c": a synonym group (one synset, its single-word members for
# which it is one of their %d most frequent senses); "! a,b": antonyms; "= form lemma":
# an irregular form. %d groups, %d antonym pairs, %d irregular forms.
#
# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.
# THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO
# REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT
# LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF
# MERCHANTABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE
# LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY
# PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. (License: WordNet 3.0, see
# /usr/share/doc/wordnet-base/copyright.)
`, *version, topSenses, groups, len(anto), len(exc))
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	for _, l := range anto {
		fmt.Fprintln(w, l)
	}
	for _, l := range exc {
		fmt.Fprintln(w, l)
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// plainWord keeps lower-case single words of letters, 3 letters or more.
func plainWord(w string) bool {
	if len(w) < 3 {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

func dedup(s []string) []string {
	seen := map[string]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// topOf reads an index file: for each lemma, the synsets among its first
// topSenses senses (only tagged senses when it has any).
func topOf(path string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	eachLine(path, func(f []string) {
		if len(f) < 6 {
			return
		}
		pcnt, err := strconv.Atoi(f[3])
		if err != nil || len(f) < 4+pcnt+2 {
			return
		}
		tagged, _ := strconv.Atoi(f[4+pcnt+1])
		offs := f[4+pcnt+2:]
		n := topSenses
		if tagged > 0 && tagged < n {
			n = tagged
		}
		m := map[string]bool{}
		for i := 0; i < n && i < len(offs); i++ {
			m[offs[i]] = true
		}
		out[f[0]] = m
	})
	return out
}

type pointer struct {
	off      string
	src, dst int
}

type synset struct {
	words    []string
	antonyms []pointer
}

// readData reads a data file's synsets: their words (lower-cased, lex ids
// and adjective markers cut) and antonym pointers.
func readData(path string) map[string]synset {
	out := map[string]synset{}
	eachLine(path, func(f []string) {
		if len(f) < 4 {
			return
		}
		n, err := strconv.ParseInt(f[3], 16, 32)
		if err != nil || len(f) < 4+2*int(n)+1 {
			return
		}
		var s synset
		for i := 0; i < int(n); i++ {
			w := strings.ToLower(f[4+2*i])
			if j := strings.IndexByte(w, '('); j >= 0 {
				w = w[:j]
			}
			s.words = append(s.words, w)
		}
		k := 4 + 2*int(n)
		pc, err := strconv.Atoi(f[k])
		if err != nil {
			return
		}
		for i := 0; i < pc && k+4+4*i < len(f); i++ {
			sym, off, st := f[k+1+4*i], f[k+2+4*i], f[k+4+4*i]
			if sym != "!" || len(st) != 4 {
				continue
			}
			src, _ := strconv.ParseInt(st[:2], 16, 32)
			dst, _ := strconv.ParseInt(st[2:], 16, 32)
			s.antonyms = append(s.antonyms, pointer{off, int(src), int(dst)})
		}
		out[f[0]] = s
	})
	return out
}

// exceptions reads an exception list: irregular forms of single words.
func exceptions(path string) []string {
	var out []string
	eachLine(path, func(f []string) {
		if len(f) >= 2 && plainWord(f[0]) && plainWord(f[1]) && f[0] != f[1] {
			out = append(out, "= "+f[0]+" "+f[1])
		}
	})
	return out
}

func eachLine(path string, fn func([]string)) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == ' ' {
			continue // the license header
		}
		fn(strings.Fields(line))
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
}
