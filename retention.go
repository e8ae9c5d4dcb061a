package pumasi

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Retention is how much of a room's past is kept (DESIGN.md §3 History).
// A past version is kept while it is among the last Versions of its name
// (the current one included) and was superseded less than MaxAge ago, and
// while the room's history stays within Bytes; the sweep drops the rest,
// oldest first. Live files never count against Bytes.
type Retention struct {
	// Off keeps no history: an upload or delete records no change and its
	// old blob is reaped as soon as nothing references it.
	Off bool
	// Versions is the most versions of one name kept, the current one
	// included (DefaultHistoryVersions when zero).
	Versions int
	// MaxAge is how long a version is kept after it stopped being current;
	// placement changes are kept as long after they happened
	// (DefaultHistoryAge when zero).
	MaxAge time.Duration
	// Bytes is the history budget of one room: the bytes of the blobs that
	// only past versions reference (DefaultHistoryBytes when zero).
	Bytes int64
}

// The environment variables of the retention, read alike by localdev,
// pumasi sweep and every Lambda function (ParseRetention).
const (
	EnvHistory         = "PUMASI_HISTORY"
	EnvHistoryVersions = "PUMASI_HISTORY_VERSIONS"
	EnvHistoryAge      = "PUMASI_HISTORY_AGE"
	EnvHistoryBytes    = "PUMASI_HISTORY_BYTES"
)

// HistoryEnv lists the retention's variables.
var HistoryEnv = []string{EnvHistory, EnvHistoryVersions, EnvHistoryAge, EnvHistoryBytes}

// RetentionFromEnv reads the retention from getenv. Returns invalid_request
// naming the variable.
func RetentionFromEnv(getenv func(string) string) (Retention, error) {
	return ParseRetention(getenv(EnvHistory), getenv(EnvHistoryVersions), getenv(EnvHistoryAge), getenv(EnvHistoryBytes))
}

// The default retention.
const (
	DefaultHistoryVersions = 50
	DefaultHistoryAge      = 30 * 24 * time.Hour
	DefaultHistoryBytes    = 64 << 20
)

// WithDefaults returns r with zero fields set to the defaults.
func (r Retention) WithDefaults() Retention {
	if r.Versions <= 0 {
		r.Versions = DefaultHistoryVersions
	}
	if r.MaxAge <= 0 {
		r.MaxAge = DefaultHistoryAge
	}
	if r.Bytes <= 0 {
		r.Bytes = DefaultHistoryBytes
	}
	return r
}

// ParseRetention reads the retention settings as the environment gives
// them (PUMASI_HISTORY, PUMASI_HISTORY_VERSIONS, PUMASI_HISTORY_AGE,
// PUMASI_HISTORY_BYTES; "" means the default). history is "on" or "off";
// age is a Go duration or a number of days ("30d"). Returns invalid_request.
func ParseRetention(history, versions, age, bytes string) (Retention, error) {
	var r Retention
	switch strings.ToLower(strings.TrimSpace(history)) {
	case "", "on", "true", "1":
	case "off", "false", "0":
		r.Off = true
	default:
		return r, Errorf(EInvalidRequest, "PUMASI_HISTORY %q must be on or off", history)
	}
	if v := strings.TrimSpace(versions); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return r, Errorf(EInvalidRequest, "PUMASI_HISTORY_VERSIONS %q must be a whole number of at least 1", versions)
		}
		r.Versions = n
	}
	if v := strings.TrimSpace(age); v != "" {
		d, err := parseDays(v)
		if err != nil || d <= 0 {
			return r, Errorf(EInvalidRequest, "PUMASI_HISTORY_AGE %q must be a positive duration (720h, 30d)", age)
		}
		r.MaxAge = d
	}
	if v := strings.TrimSpace(bytes); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			return r, Errorf(EInvalidRequest, "PUMASI_HISTORY_BYTES %q must be a positive number of bytes", bytes)
		}
		r.Bytes = n
	}
	return r.WithDefaults(), nil
}

func parseDays(v string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.ParseFloat(d, 64)
		if err != nil {
			return 0, err
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	return time.ParseDuration(v)
}

// PlanRetention decides which of a room's kept changes fall out of
// retention at now: it returns their revs, sorted. live maps each name the
// room holds to its current sha256. The newest change of each name is its
// present (the live version, or the delete of a deleted name) and is never
// dropped, except a delete that has no older version with content left to
// restore. Past versions go when they are too many or too old (counted from
// when they were superseded), then, while the blobs only past versions
// reference exceed the budget, the longest-superseded go first. Placement
// changes go by age alone. With r.Off every change goes.
func PlanRetention(changes []Change, live map[string]string, r Retention, now time.Time) []int64 {
	if r.Off {
		out := make([]int64, 0, len(changes))
		for _, c := range changes {
			out = append(out, c.Rev)
		}
		slices.Sort(out)
		return out
	}
	r = r.WithDefaults()
	drop := map[int64]bool{}
	byName := map[string][]Change{}
	for _, c := range changes {
		if !c.IsFileChange() {
			if now.Sub(c.At) > r.MaxAge {
				drop[c.Rev] = true
			}
			continue
		}
		byName[c.Name] = append(byName[c.Name], c)
	}
	type past struct {
		c          Change
		superseded time.Time
	}
	var kept []past
	liveSHA := map[string]bool{}
	for _, sum := range live {
		liveSHA[sum] = true
	}
	for _, cs := range byName {
		slices.SortFunc(cs, func(a, b Change) int { return b.Version - a.Version })
		for i := 1; i < len(cs); i++ {
			p := past{c: cs[i], superseded: cs[i-1].At}
			if i >= r.Versions || now.Sub(p.superseded) > r.MaxAge {
				drop[p.c.Rev] = true
				continue
			}
			kept = append(kept, p)
		}
	}
	// The budget: bytes of the distinct blobs only kept past versions hold.
	refs := map[string]int{}
	var used int64
	for _, p := range kept {
		if sum := p.c.ToSHA256; p.c.Kind != ChangeDelete && !liveSHA[sum] {
			if refs[sum] == 0 {
				used += p.c.Size
			}
			refs[sum]++
		}
	}
	slices.SortFunc(kept, func(a, b past) int {
		if c := a.superseded.Compare(b.superseded); c != 0 {
			return c
		}
		return int(a.c.Rev - b.c.Rev)
	})
	for _, p := range kept {
		if used <= r.Bytes {
			break
		}
		// Only versions that hold bytes of their own go for the budget: a
		// delete, or a version whose content is live, costs nothing.
		sum := p.c.ToSHA256
		if p.c.Kind == ChangeDelete || liveSHA[sum] {
			continue
		}
		drop[p.c.Rev] = true
		if refs[sum]--; refs[sum] == 0 {
			used -= p.c.Size
		}
	}
	// A deleted name whose content versions are all gone has nothing left
	// to restore: its delete goes too.
	for name, cs := range byName {
		if _, ok := live[name]; ok || cs[0].Kind != ChangeDelete {
			continue
		}
		left := false
		for _, c := range cs[1:] {
			left = left || (c.Kind != ChangeDelete && !drop[c.Rev])
		}
		if !left {
			drop[cs[0].Rev] = true
		}
	}
	out := make([]int64, 0, len(drop))
	for rev := range drop {
		out = append(out, rev)
	}
	slices.Sort(out)
	return out
}

// PlanRestore decides a restore of version v (the change that made it) of
// in.Name into a room whose file with the same name up to case is cur and
// whose usage is use, by the rules of PlanPut: a delete's version is gone;
// restoring the content the name holds is PutUnchanged; otherwise the
// quotas refuse only what a restore makes worse, so a room at its quota
// can still go back to a version no larger than the current one. Returns
// gone, name_conflict, precondition_failed and quota_exceeded.
func PlanRestore(cur *File, use RoomUsage, in RestoreInput, v Change) (PutPlan, error) {
	if v.Kind == ChangeDelete {
		return 0, Errorf(EGone, "version %d of %q is its delete; restore a version with content", v.Version, in.Name)
	}
	return planWrite(cur, use, writeInput{
		room: in.Room, name: in.Name, size: v.Size, sum: v.ToSHA256, ifMatch: in.IfMatch, ifNoneMatch: in.IfNoneMatch,
	})
}

// VersionNotKept is the not_found error for a version no change records.
func VersionNotKept(room, name string, v int) error {
	return Errorf(ENotFound, "%s", fmt.Sprintf("version %d of %q in room %s is not kept", v, name, room))
}

// The page sizes of a room log.
const (
	DefaultLogLimit = 100
	MaxLogLimit     = 1000
)

// LogLimit returns limit bounded to 1..MaxLogLimit, DefaultLogLimit for 0
// or less.
func LogLimit(limit int) int {
	if limit <= 0 {
		return DefaultLogLimit
	}
	return min(limit, MaxLogLimit)
}
