package ann

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
)

// File layout (little endian), version 1:
//
//	magic "PANNHNSW" | version u32 | header: 11 × u64 | crc32c(magic..header) u32
//	keys []u64 | inv []f32 | levels []u8 | deleted []u64 | codes []i8 |
//	links0 []u32 | upperOff []u32 | upper []u32 | crc32c(body) u32
//
// The header has its own checksum so a corrupted length is refused before it
// sizes an allocation; slabs are written and read in 64 KiB chunks of whole
// slices, so 1M entries (~700 MB) load at disk speed.
const (
	magic   = "PANNHNSW"
	version = 1
	chunk   = 64 << 10
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is returned by Load for a file that fails its checksum or holds
// an impossible graph.
var ErrCorrupt = errors.New("ann: corrupt index file")

// Save writes the index in the binary format Load reads. It holds the read
// lock, so searches continue while it runs but writers wait.
func (x *Index) Save(w io.Writer) error {
	x.mu.RLock()
	defer x.mu.RUnlock()
	bw := bufio.NewWriterSize(w, 1<<20)
	h := crc32.New(castagnoli)
	mw := io.MultiWriter(bw, h)
	hdr := []uint64{
		uint64(x.dim), uint64(x.opt.M), uint64(x.opt.EfConstruction), uint64(x.opt.EfSearch),
		uint64(x.opt.Seed), uint64(len(x.keys)), uint64(len(x.byKey)), uint64(x.entry),
		uint64(x.maxLevel), uint64(len(x.upper)), boolU64(x.empty),
	}
	buf := make([]byte, 0, chunk)
	buf = append(buf, magic...)
	buf = binary.LittleEndian.AppendUint32(buf, version)
	buf, _ = binary.Append(buf, binary.LittleEndian, hdr)
	if _, err := mw.Write(buf); err != nil {
		return fmt.Errorf("save index header: %w", err)
	}
	if err := writeSum(bw, h); err != nil {
		return err
	}
	h.Reset()
	err := errors.Join(
		writeSlab(mw, x.keys, buf), writeSlab(mw, x.inv, buf), writeSlab(mw, x.levels, buf),
		writeSlab(mw, x.deleted, buf), writeSlab(mw, x.codes, buf), writeSlab(mw, x.links0, buf),
		writeSlab(mw, x.upperOff, buf), writeSlab(mw, x.upper, buf),
	)
	if err != nil {
		return fmt.Errorf("save index: %w", err)
	}
	if err := writeSum(bw, h); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("save index: %w", err)
	}
	return nil
}

func boolU64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func writeSum(w io.Writer, h hash.Hash32) error {
	if _, err := w.Write(binary.LittleEndian.AppendUint32(nil, h.Sum32())); err != nil {
		return fmt.Errorf("save index checksum: %w", err)
	}
	return nil
}

// writeSlab encodes s in chunks through buf, so memory stays bounded however
// large the slab.
func writeSlab[T int8 | uint8 | uint32 | uint64 | float32](w io.Writer, s []T, buf []byte) error {
	size := binary.Size(s[:min(len(s), 1)])
	step := max(1, chunk/max(size, 1))
	for len(s) > 0 {
		c := min(len(s), step)
		b, err := binary.Append(buf[:0], binary.LittleEndian, s[:c])
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		s = s[c:]
	}
	return nil
}

// readSlab fills s from r in chunks through buf.
func readSlab[T int8 | uint8 | uint32 | uint64 | float32](r io.Reader, s []T, buf []byte) error {
	var zero T
	size := binary.Size(zero)
	step := chunk / size
	for len(s) > 0 {
		c := min(len(s), step)
		b := buf[:c*size]
		if _, err := io.ReadFull(r, b); err != nil {
			return err
		}
		if _, err := binary.Decode(b, binary.LittleEndian, s[:c]); err != nil {
			return err
		}
		s = s[c:]
	}
	return nil
}

// hashReader checksums what it reads.
type hashReader struct {
	r io.Reader
	h hash.Hash32
}

func (hr *hashReader) Read(p []byte) (int, error) {
	n, err := hr.r.Read(p)
	hr.h.Write(p[:n])
	return n, err
}

// Load reads an index written by Save. It refuses, with an error wrapping
// ErrCorrupt, a file whose magic, version, checksums or graph structure are
// wrong, and returns the reader's error for a truncated one.
func Load(r io.Reader) (*Index, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	hr := &hashReader{br, crc32.New(castagnoli)}
	buf := make([]byte, chunk)
	head := buf[:len(magic)+4+11*8]
	if _, err := io.ReadFull(hr, head); err != nil {
		return nil, fmt.Errorf("load index header: %w", err)
	}
	if string(head[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: bad magic", ErrCorrupt)
	}
	if v := binary.LittleEndian.Uint32(head[len(magic):]); v != version {
		return nil, fmt.Errorf("%w: version %d, want %d", ErrCorrupt, v, version)
	}
	hdr := make([]uint64, 11)
	binary.Decode(head[len(magic)+4:], binary.LittleEndian, hdr)
	if err := checkSum(br, hr.h); err != nil {
		return nil, err
	}
	dim, m, efc, efs, seed, n, live, entry, maxLevel, upperLen, empty :=
		hdr[0], hdr[1], hdr[2], hdr[3], hdr[4], hdr[5], hdr[6], hdr[7], hdr[8], hdr[9], hdr[10]
	if dim < 1 || dim > maxDim || m < 2 || m > 1<<12 || efc > 1<<20 || efs > 1<<20 ||
		n >= math.MaxUint32 || live > n || maxLevel >= maxLevels || upperLen >= math.MaxUint32 {
		return nil, fmt.Errorf("%w: header out of range", ErrCorrupt)
	}
	x := New(int(dim), Options{M: int(m), EfConstruction: int(efc), EfSearch: int(efs), Seed: int64(seed)})
	// Later inserts draw from a stream distinct from the one that built the
	// graph, but still reproducible.
	x.rng = rand.New(rand.NewPCG(seed, n))
	nn := int(n)
	x.keys = make([]uint64, nn)
	x.inv = make([]float32, nn)
	x.levels = make([]uint8, nn)
	x.deleted = make([]uint64, (nn+63)/64)
	x.codes = make([]int8, nn*x.dim)
	x.links0 = make([]uint32, nn*(x.m0+1))
	x.upperOff = make([]uint32, nn)
	x.upper = make([]uint32, int(upperLen))
	hr.h.Reset()
	err := errors.Join(
		readSlab(hr, x.keys, buf), readSlab(hr, x.inv, buf), readSlab(hr, x.levels, buf),
		readSlab(hr, x.deleted, buf), readSlab(hr, x.codes, buf), readSlab(hr, x.links0, buf),
		readSlab(hr, x.upperOff, buf), readSlab(hr, x.upper, buf),
	)
	if err != nil {
		return nil, fmt.Errorf("load index: %w", err)
	}
	if err := checkSum(br, hr.h); err != nil {
		return nil, err
	}
	x.entry, x.maxLevel, x.empty = uint32(entry), int(maxLevel), empty != 0
	if err := x.validate(int(live)); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return x, nil
}

func checkSum(r io.Reader, h hash.Hash32) error {
	want := h.Sum32()
	var b [4]byte
	if _, err := io.ReadFull(r, b[:]); err != nil {
		return fmt.Errorf("load index checksum: %w", err)
	}
	if got := binary.LittleEndian.Uint32(b[:]); got != want {
		return fmt.Errorf("%w: checksum %08x, want %08x", ErrCorrupt, got, want)
	}
	return nil
}

// validate checks that every link, level and offset is in range (a checksum
// can match a file written by a buggy or hostile writer) and rebuilds the key
// map from the live nodes.
func (x *Index) validate(live int) error {
	n := len(x.keys)
	if x.empty != (n == 0) || (n > 0 && int(x.entry) >= n) {
		return fmt.Errorf("entry point %d of %d nodes", x.entry, n)
	}
	if n > 0 && int(x.levels[x.entry]) != x.maxLevel {
		return fmt.Errorf("entry point level %d, max level %d", x.levels[x.entry], x.maxLevel)
	}
	x.byKey = make(map[uint64]uint32, live)
	for id := range n {
		lv := int(x.levels[id])
		if lv > x.maxLevel {
			return fmt.Errorf("node %d level %d above max %d", id, lv, x.maxLevel)
		}
		if lv > 0 && int(x.upperOff[id])+lv*(x.opt.M+1) > len(x.upper) {
			return fmt.Errorf("node %d upper links out of range", id)
		}
		for l := 0; l <= lv; l++ {
			b := x.block(uint32(id), l)
			if int(b[0]) > len(b)-1 {
				return fmt.Errorf("node %d layer %d has %d links", id, l, b[0])
			}
			for _, nb := range b[1 : 1+b[0]] {
				if int(nb) >= n || int(x.levels[nb]) < l {
					return fmt.Errorf("node %d layer %d links to %d", id, l, nb)
				}
			}
		}
		if x.isDeleted(uint32(id)) {
			continue
		}
		if _, dup := x.byKey[x.keys[id]]; dup {
			return fmt.Errorf("key %d live twice", x.keys[id])
		}
		x.byKey[x.keys[id]] = uint32(id)
	}
	if len(x.byKey) != live {
		return fmt.Errorf("%d live nodes, header says %d", len(x.byKey), live)
	}
	if n%64 != 0 && len(x.deleted) > 0 && x.deleted[len(x.deleted)-1]>>(n%64) != 0 {
		return errors.New("tombstones past the last node")
	}
	return nil
}
