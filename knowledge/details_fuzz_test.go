package knowledge

import "testing"

// FuzzDetailsConflict feeds two texts to the merge decision's detail
// comparison. It runs inside every contribution (on a goroutine, so a
// panic there ends the server, not one request): it must never panic,
// and it must be symmetric.
func FuzzDetailsConflict(f *testing.F) {
	for _, s := range [][2]string{
		{"Run `||` to chain", "Run `&&` to chain"},
		{"use `( )` here", "use `git push` here"},
		{"pass `--` before args", "pass `-- -x` before args"},
		{"`kubectl rollout restart deployment/api`", "`kubectl rollout undo deployment/api`"},
		{"set `encoding=utf8`", "set `encoding=latin1`"},
		{"`\"\"`", "`''`"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		da, db := ParseDetails(a), ParseDetails(b)
		if DetailsConflict(da, db) != DetailsConflict(db, da) {
			t.Fatalf("DetailsConflict(%q, %q) is not symmetric", a, b)
		}
	})
}
