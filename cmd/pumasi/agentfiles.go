package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"pumasi"
	"pumasi/prompt"
)

// daemonTempPrefix marks the machine daemon's files in flight in
// memory/shared/; they are never part of what an agent sees.
const daemonTempPrefix = ".pumasi-tmp-"

// agentSharedDir is the folder the machine daemon mirrors an agent's room
// into: <home>/agents/<agent>/memory/shared.
func agentSharedDir(home, agent string) string {
	return filepath.Join(home, "agents", agent, "memory", "shared")
}

// sharedEntry is one file of an agent's memory/shared/ directory.
type sharedEntry struct {
	// name is the NFC form of the name, as rooms and agents know it;
	// diskName is the name as the filesystem spells it (NFD on some Macs).
	name     string
	diskName string
	sha256   string
	size     int64
	content  []byte
}

// listSharedFiles reads every file of an agent's shared directory, sorted by
// name. Names that break the name rules (dot files, the daemon's temp
// files, anything hostile) are skipped, and so are directories, symlinks
// and other non-regular files, so nothing outside dir is ever read. A
// missing directory is an agent with no room yet and lists empty.
func listSharedFiles(ctx context.Context, dir string) ([]sharedEntry, error) {
	root, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open shared dir: %w", err)
	}
	defer root.Close()
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list shared dir: %w", err)
	}
	var out []sharedEntry
	for _, de := range des {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !de.Type().IsRegular() || strings.HasPrefix(de.Name(), daemonTempPrefix) {
			continue
		}
		name, err := pumasi.NormalizeName(de.Name())
		if err != nil {
			continue
		}
		content, err := readInRoot(root, de.Name())
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed by the daemon since the listing
		}
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(content)
		out = append(out, sharedEntry{
			name: name, diskName: de.Name(), sha256: hex.EncodeToString(sum[:]),
			size: int64(len(content)), content: content,
		})
	}
	// Two spellings of one name (NFC and NFD side by side on a
	// normalisation-blind filesystem) show once, preferring the NFC file.
	slices.SortFunc(out, func(a, b sharedEntry) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		return cmp.Compare(boolRank(a.diskName != a.name), boolRank(b.diskName != b.name))
	})
	out = slices.CompactFunc(out, func(a, b sharedEntry) bool { return a.name == b.name })
	return out, nil
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// readInRoot reads one regular file of root by its on-disk name; os.Root
// refuses to follow anything out of the directory.
func readInRoot(root *os.Root, name string) ([]byte, error) {
	f, err := root.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open shared file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat shared file: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("open shared file: %w", fs.ErrNotExist)
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read shared file: %w", err)
	}
	return b, nil
}

// findSharedFile returns the file called name in an agent's shared
// directory. The name must pass the name rules (invalid_name otherwise) and
// is looked up in the listing, never joined onto a path, so a hostile name
// cannot reach outside the directory. Returns not_found when absent.
func findSharedFile(ctx context.Context, dir, name string) (sharedEntry, error) {
	n, err := pumasi.NormalizeName(name)
	if err != nil {
		return sharedEntry{}, err
	}
	entries, err := listSharedFiles(ctx, dir)
	if err != nil {
		return sharedEntry{}, err
	}
	for _, e := range entries {
		if e.name == n {
			return e, nil
		}
	}
	for _, e := range entries {
		if pumasi.FoldName(e.name) == pumasi.FoldName(n) {
			return e, nil
		}
	}
	return sharedEntry{}, pumasi.Errorf(pumasi.ENotFound, "no shared file named %q", n)
}

// sharedContextBlock renders the <shared-context> block of an agent's shared
// directory within budget bytes (0 means no limit).
func sharedContextBlock(ctx context.Context, dir string, budget int) (string, error) {
	entries, err := listSharedFiles(ctx, dir)
	if err != nil {
		return "", err
	}
	files := make([]prompt.SharedFile, len(entries))
	for i, e := range entries {
		files[i] = prompt.SharedFile{Name: e.name, SHA256: e.sha256, Content: e.content}
	}
	return prompt.ComposeSharedContext(files, budget), nil
}

// resolveShared resolves references against an agent's shared directory,
// the local copy of its room. Files on disk carry no room file id, so the
// references' id is empty.
func resolveShared(ctx context.Context, dir, text string, explicit []string) (prompt.Resolution, error) {
	entries, err := listSharedFiles(ctx, dir)
	if err != nil {
		return prompt.Resolution{}, err
	}
	files := make([]pumasi.File, len(entries))
	for i, e := range entries {
		files[i] = pumasi.File{Name: e.name, SHA256: e.sha256, Size: e.size}
	}
	return prompt.Resolve(text, explicit, files), nil
}
