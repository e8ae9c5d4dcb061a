package s3

import "pumasi"

// findLookalike returns the index of a file whose name looks like name
// (the same pumasi.LookalikeKey), or -1. PutFile asks it only when no name
// equals name up to case (findFold): the key costs about 0.1 µs for an
// ASCII name, a few µs for others, per file of the room.
func (m *manifest) findLookalike(name string) int {
	key := pumasi.LookalikeKey(name)
	for j, f := range m.Files {
		if pumasi.LookalikeKey(f.Name) == key {
			return j
		}
	}
	return -1
}
