package s3

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

	"pumasi"
)

// Connections live in two small objects each, so that a machine's listing is
// one prefix scan and $disconnect, which knows only the id, finds the machine:
//
//	connections/by-id/<hex id>.json              {id, machine_id, connected_at}
//	connections/by-machine/<machine>/<hex id>    the same body
//
// Ids are hex-encoded in keys because API Gateway's ids may hold `/` and `+`.
// Each object has one writer at a time in practice (the gateway gives each
// connection one id), so plain last-writer-wins PUTs suffice.

var _ pumasi.ConnectionStore = (*Store)(nil)

func (s *Store) connIDKey(id string) string {
	return s.prefix + "connections/by-id/" + hex.EncodeToString([]byte(id)) + ".json"
}

func (s *Store) connMachinePrefix(machine string) string {
	return s.prefix + "connections/by-machine/" + machine + "/"
}

func (s *Store) connMachineKey(machine, id string) string {
	return s.connMachinePrefix(machine) + hex.EncodeToString([]byte(id))
}

// SaveConnection records id as a connection of machine; an id saved again
// moves to the new machine.
func (s *Store) SaveConnection(ctx context.Context, machine, id string) error {
	if err := pumasi.CheckID("machine", machine); err != nil {
		return err
	}
	if err := pumasi.CheckConnectionID(id); err != nil {
		return err
	}
	prev, found, err := s.readConn(ctx, s.connIDKey(id))
	if err != nil {
		return fmt.Errorf("save connection: %w", err)
	}
	c := pumasi.Connection{ID: id, MachineID: machine, ConnectedAt: s.now().UTC()}
	body, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("save connection: %w", err)
	}
	// The machine entry first: a crash between the two PUTs leaves an entry
	// a push will try once and drop on 410, never an id nobody can list.
	if err := s.putConn(ctx, s.connMachineKey(machine, id), body); err != nil {
		return fmt.Errorf("save connection: %w", err)
	}
	if err := s.putConn(ctx, s.connIDKey(id), body); err != nil {
		return fmt.Errorf("save connection: %w", err)
	}
	if found && prev.MachineID != machine {
		if err := s.deleteConn(ctx, s.connMachineKey(prev.MachineID, id)); err != nil {
			return fmt.Errorf("save connection: %w", err)
		}
	}
	return nil
}

// DropConnection forgets id. Returns not_found when it is not recorded.
func (s *Store) DropConnection(ctx context.Context, id string) (pumasi.Connection, error) {
	if !pumasi.ValidConnectionID(id) {
		return pumasi.Connection{}, pumasi.Errorf(pumasi.ENotFound, "connection not found")
	}
	c, found, err := s.readConn(ctx, s.connIDKey(id))
	if err != nil {
		return pumasi.Connection{}, fmt.Errorf("drop connection: %w", err)
	}
	if !found {
		return pumasi.Connection{}, pumasi.Errorf(pumasi.ENotFound, "connection not found")
	}
	if err := s.deleteConn(ctx, s.connMachineKey(c.MachineID, id)); err != nil {
		return pumasi.Connection{}, fmt.Errorf("drop connection: %w", err)
	}
	if err := s.deleteConn(ctx, s.connIDKey(id)); err != nil {
		return pumasi.Connection{}, fmt.Errorf("drop connection: %w", err)
	}
	return c, nil
}

// LookupConnection returns the connection recorded under id. Returns
// not_found when it is not recorded.
func (s *Store) LookupConnection(ctx context.Context, id string) (pumasi.Connection, error) {
	if !pumasi.ValidConnectionID(id) {
		return pumasi.Connection{}, pumasi.Errorf(pumasi.ENotFound, "connection not found")
	}
	c, found, err := s.readConn(ctx, s.connIDKey(id))
	if err != nil {
		return pumasi.Connection{}, fmt.Errorf("lookup connection: %w", err)
	}
	if !found {
		return pumasi.Connection{}, pumasi.Errorf(pumasi.ENotFound, "connection not found")
	}
	return c, nil
}

// staleConnEntry is how old a machine entry without a matching id record
// must be before MachineConnections removes it: SaveConnection writes the
// id record a moment after the entry, so a younger one may be mid-save.
const staleConnEntry = 5 * time.Minute

// MachineConnections lists machine's connections sorted by id. An entry
// whose id record has moved to another machine or vanished is skipped, and
// removed once it is old: a crash (or failed PUT) between SaveConnection's
// two writes leaves such an entry, which DropConnection cannot find by id,
// so nothing else would ever remove it.
func (s *Store) MachineConnections(ctx context.Context, machine string) ([]pumasi.Connection, error) {
	if err := pumasi.CheckID("machine", machine); err != nil {
		return nil, err
	}
	base := s.connMachinePrefix(machine)
	type entry struct {
		key      string
		modified time.Time
	}
	var entries []entry
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(base)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list connections: %w", err)
		}
		for _, o := range page.Contents {
			entries = append(entries, entry{aws.ToString(o.Key), aws.ToTime(o.LastModified)})
		}
	}
	out := []pumasi.Connection{}
	for _, e := range entries {
		raw, err := hex.DecodeString(strings.TrimPrefix(e.key, base))
		if err != nil {
			continue
		}
		id := string(raw)
		c, found, err := s.readConn(ctx, s.connIDKey(id))
		if err != nil {
			return nil, fmt.Errorf("list connections: %w", err)
		}
		if !found || c.MachineID != machine || c.ID != id {
			if !e.modified.IsZero() && e.modified.Before(s.now().Add(-staleConnEntry)) {
				if err := s.deleteConn(ctx, e.key); err != nil {
					s.log.Warn("drop stale connection entry", "machine", machine, "key", e.key, "err", err)
				}
			}
			continue
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func (s *Store) readConn(ctx context.Context, key string) (pumasi.Connection, bool, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	if err != nil {
		if connNotFound(err) {
			return pumasi.Connection{}, false, nil
		}
		return pumasi.Connection{}, false, fmt.Errorf("get %s: %w", key, err)
	}
	defer out.Body.Close()
	body, err := io.ReadAll(out.Body)
	if err != nil {
		return pumasi.Connection{}, false, fmt.Errorf("read %s: %w", key, err)
	}
	var c pumasi.Connection
	if err := json.Unmarshal(body, &c); err != nil {
		return pumasi.Connection{}, false, fmt.Errorf("decode %s: %w", key, err)
	}
	return c, true, nil
}

// putConn writes a connection object. A PUT whose answer was lost (500, a
// reset, a timeout) is settled by reading the object back: the body names
// this call's connected_at, so finding it there means the write landed.
// Otherwise the PUT, which is idempotent, is sent again, a bounded number of
// times.
func (s *Store) putConn(ctx context.Context, key string, body []byte) error {
	var err error
	for attempt := 0; attempt < casUnsureMax; attempt++ {
		if attempt > 0 {
			if err := sleep(ctx, backoff(attempt)); err != nil {
				return fmt.Errorf("put %s: %w", key, err)
			}
		}
		wctx, cancel := context.WithTimeout(ctx, s.writeTimeout)
		_, err = s.client.PutObject(wctx, &s3.PutObjectInput{
			Bucket:        aws.String(s.bucket),
			Key:           aws.String(key),
			Body:          bytes.NewReader(body),
			ContentLength: aws.Int64(int64(len(body))),
			ContentType:   aws.String("application/json"),
		}, func(o *s3.Options) { o.RetryMaxAttempts = 1 })
		cancel()
		noteWrite(ctx, err)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || isRefusal(err) {
			break
		}
		got, _, exists, rerr := s.getObject(ctx, key)
		if rerr == nil && exists && bytes.Equal(got, body) {
			s.landed.Add(1)
			return nil
		}
	}
	return fmt.Errorf("put %s: %w", key, err)
}

func (s *Store) deleteConn(ctx context.Context, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	noteWrite(ctx, err)
	if err != nil && !connNotFound(err) {
		return fmt.Errorf("delete %s: %w", key, err)
	}
	return nil
}

// connNotFound reports a missing key.
func connNotFound(err error) bool {
	var re *awshttp.ResponseError
	if errors.As(err, &re) && re.HTTPStatusCode() == 404 {
		return true
	}
	var ae smithy.APIError
	return errors.As(err, &ae) && (ae.ErrorCode() == "NoSuchKey" || ae.ErrorCode() == "NotFound")
}
