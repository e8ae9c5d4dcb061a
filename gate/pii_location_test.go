package gate

import (
	"slices"
	"testing"
)

// TestHomeCoords checks a home's or a user's coordinates under their field
// and the look-alikes: a store's, a map's centre, coarse or out-of-range
// pairs, versions.
func TestHomeCoords(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{`prefs.json: {"homeLocation": {"lat": 48.13512, "lng": 11.58198}, "units": "metric"}`, true},
		{"user_coords = (35.68951, 139.69170)  # from the signup form", true},
		{`{"storeLocation": {"lat": 48.13512, "lng": 11.58198}}`, false},
		{`map.setView([48.13512, 11.58198], 13) centres the tiles`, false},
		{`{"homeLocation": {"lat": 48.1, "lng": 11.6}}`, false},
		{`{"homeLocation": {"lat": 148.13512, "lng": 11.58198}}`, false},
		{`home_position = 0.0000, 0.0000 until the GPS fixes`, false},
	} {
		got := slices.Contains(DetectPII(c.text), PIILocation)
		if got != c.want {
			t.Errorf("location in %q = %v, want %v", c.text, got, c.want)
		}
	}
}
