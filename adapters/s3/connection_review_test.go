package s3_test

import (
	"context"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"pumasi"
	s3store "pumasi/adapters/s3"
)

// TestOrphanConnectionEntryIsDropped: SaveConnection writes the machine
// entry, then the id record. When it fails between the two, the entry is
// listed but DropConnection (which the gateway calls on 410 Gone) cannot
// find it by id, so it used to stay and be posted to on every push forever.
// MachineConnections must skip such an entry and remove it once it is too
// old to be a save in progress, while a young one is kept.
func TestOrphanConnectionEntryIsDropped(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	st := e.open(t, s3store.Options{})
	if err := st.SaveConnection(ctx, "m1", "live"); err != nil {
		t.Fatal(err)
	}
	orphanKey := "connections/by-machine/m1/" + hex.EncodeToString([]byte("half-saved"))
	e.putRaw(t, orphanKey, []byte(`{"id":"half-saved","machine_id":"m1","connected_at":"2026-01-01T00:00:00Z"}`))

	// Now: the entry may be a save in progress, so it is skipped but kept.
	cs, err := st.MachineConnections(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(connIDsOf(cs)) != "[live]" {
		t.Fatalf("MachineConnections(m1) = %v, want [live]", connIDsOf(cs))
	}
	if !e.objectExists(t, orphanKey) {
		t.Fatalf("a young entry without its id record was removed; it may be a save in progress")
	}

	// Ten minutes on, it is an orphan: skipped and removed.
	later := e.open(t, s3store.Options{Now: func() time.Time { return time.Now().Add(10 * time.Minute) }})
	cs, err = later.MachineConnections(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(connIDsOf(cs)) != "[live]" {
		t.Fatalf("MachineConnections(m1) later = %v, want [live]", connIDsOf(cs))
	}
	if e.objectExists(t, orphanKey) {
		t.Fatalf("an old machine entry whose id record is missing was left in place")
	}
	if _, err := later.LookupConnection(ctx, "live"); err != nil {
		t.Fatalf("the live connection was harmed: %v", err)
	}
}

func connIDsOf(cs []pumasi.Connection) []string {
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

// objectExists reports whether key (under the env's prefix) exists.
func (e env) objectExists(t *testing.T, key string) bool {
	t.Helper()
	_, err := e.srv.Client().HeadObject(context.Background(), &s3.HeadObjectInput{Bucket: aws.String(e.bucket), Key: aws.String(e.prefix + "/" + key)})
	return err == nil
}
