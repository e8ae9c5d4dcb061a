package localdev_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// crashKeep is the history retention of the crash run: small, so the
// sweeps running beside it reap versions all along.
const crashKeep = 4

// TestCrashHistoryLosesNothing edits, restores and deletes files in a real
// localdev while `pumasi sweep` processes apply the retention and reap
// blobs beside it, and SIGKILLs both at varying moments. After a last boot
// every acknowledged version is either listed with its bytes, or was
// reaped by the retention (at least crashKeep newer versions of its name
// exist); no listed version holds other bytes than acknowledged, and no
// blob is left without a file or a kept version.
func TestCrashHistoryLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	bin, err := buildPumasi()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	keep := fmt.Sprintf("PUMASI_HISTORY_VERSIONS=%d", crashKeep)
	type acked struct {
		version int
		sha     string
	}
	var mu sync.Mutex
	acks := map[string][]acked{} // name -> versions acknowledged
	ops := map[string]int{}
	for round, killAfter := range []time.Duration{300 * time.Millisecond, 120 * time.Millisecond, 500 * time.Millisecond} {
		p := startLocaldev(t, home, keep)
		token := strings.TrimSpace(readFile(t, filepath.Join(home, "admin.token")))
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for w := 0; w < 3; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rnd := rand.New(rand.NewPCG(uint64(round), uint64(w)))
				name := fmt.Sprintf("w%d.md", w)
				for n := 0; ctx.Err() == nil; n++ {
					mu.Lock()
					mine := append([]acked(nil), acks[name]...)
					mu.Unlock()
					kind, status, v, sha := "upload", 0, 0, ""
					switch x := rnd.IntN(10); {
					case x < 3 && len(mine) > 0:
						kind = "restore"
						pick := mine[rnd.IntN(len(mine))]
						if pick.sha == "" {
							continue
						}
						status, v, sha = restoreReq(ctx, p.base, token, "crash", name, pick.version)
					case x < 4:
						// A delete's version carries no content; the versions
						// before it must survive it.
						kind = "delete"
						status, _ = deleteReq(ctx, p.base, token, "crash", name)
					default:
						content := []byte(fmt.Sprintf("round %d worker %d edit %d\n%s", round, w, n, strings.Repeat("x", rnd.IntN(4000))))
						status, v, sha = uploadVersion(ctx, p.base, token, "crash", name, content)
					}
					mu.Lock()
					ops[kind]++
					if status/100 == 2 && v > 0 {
						acks[name] = append(acks[name], acked{version: v, sha: sha})
					}
					mu.Unlock()
				}
			}()
		}
		// Sweeps beside it, each killed or left to finish.
		stopSweeps := make(chan struct{})
		var sweeps sync.WaitGroup
		sweeps.Add(1)
		go func() {
			defer sweeps.Done()
			for i := 0; ; i++ {
				select {
				case <-stopSweeps:
					return
				default:
				}
				cmd := exec.Command(bin, "sweep", "--home", home, "--grace", "2s")
				cmd.Env = append(os.Environ(), "PUMASI_SECRET=", "PUMASI_STORAGE=", keep)
				if cmd.Start() != nil {
					return
				}
				if i%2 == 1 {
					time.Sleep(time.Duration(30+20*i) * time.Millisecond)
					cmd.Process.Signal(syscall.SIGKILL)
				}
				cmd.Wait()
			}
		}()
		time.Sleep(killAfter)
		if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		p.cmd.Wait()
		cancel()
		wg.Wait()
		close(stopSweeps)
		sweeps.Wait()
	}

	// A last sweep under the retention, then a lone boot cleans what is left.
	p := startLocaldev(t, home, keep)
	token := strings.TrimSpace(readFile(t, filepath.Join(home, "admin.token")))
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()
	sweep := exec.Command(bin, "sweep", "--home", home, "--grace", "0s")
	sweep.Env = append(os.Environ(), "PUMASI_SECRET=", "PUMASI_STORAGE=", keep)
	if out, err := sweep.CombinedOutput(); err != nil {
		t.Fatalf("pumasi sweep: %v\n%s", err, out)
	}
	p = startLocaldev(t, home, keep)

	kept := map[string]bool{}
	var l struct {
		Files []struct{ Name, SHA256 string } `json:"files"`
	}
	getAuthJSON(t, p.base+"/rooms/crash/files", token, &l)
	for _, f := range l.Files {
		kept[f.SHA256] = true
	}
	total, listed, reaped := 0, 0, 0
	for name, as := range acks {
		var vl struct {
			Versions []struct {
				Version int    `json:"version"`
				SHA256  string `json:"sha256"`
				Deleted bool   `json:"deleted"`
			} `json:"versions"`
		}
		getAuthJSON(t, p.base+"/rooms/crash/files/"+name+"/versions", token, &vl)
		byVersion := map[int]string{}
		newest := 0
		for _, v := range vl.Versions {
			byVersion[v.Version] = v.SHA256
			newest = max(newest, v.Version)
			if !v.Deleted {
				kept[v.SHA256] = true
			}
		}
		for _, a := range as {
			total++
			got, ok := byVersion[a.version]
			switch {
			case ok && got != a.sha:
				t.Errorf("%s version %d lists %q, acknowledged %q", name, a.version, got, a.sha)
			case ok:
				listed++
				req, _ := http.NewRequest("GET", fmt.Sprintf("%s/rooms/crash/files/%s?version=%d", p.base, name, a.version), nil)
				req.Header.Set("Authorization", "Bearer "+token)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if sum := sha256.Sum256(b); resp.StatusCode != 200 || hex.EncodeToString(sum[:]) != a.sha {
					t.Errorf("%s version %d reads %d with other bytes", name, a.version, resp.StatusCode)
				}
			case newest < a.version+crashKeep:
				t.Errorf("%s version %d (acknowledged) was lost: newest kept is %d, retention keeps %d", name, a.version, newest, crashKeep)
			default:
				reaped++
			}
		}
	}
	if total < 30 || reaped == 0 || ops["restore"] == 0 {
		t.Fatalf("%d versions acknowledged, %d reaped, ops %v: the run exercised too little", total, reaped, ops)
	}
	entries, err := os.ReadDir(filepath.Join(home, "room_files", "crash"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() && !kept[e.Name()] {
			t.Errorf("blob %s is neither a file nor a kept version after the last boot", e.Name()[:12])
		}
	}
	t.Logf("ops %v across 3 SIGKILLs of localdev and killed sweeps: %d versions acknowledged, %d listed with their bytes, %d reaped by the retention", ops, total, listed, reaped)
}

func uploadVersion(ctx context.Context, base, token, room, name string, content []byte) (int, int, string) {
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/rooms/"+room+"/files?name="+name, strings.NewReader(string(content)))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "text/markdown")
	return fileAnswer(req)
}

func restoreReq(ctx context.Context, base, token, room, name string, v int) (int, int, string) {
	req, _ := http.NewRequestWithContext(ctx, "POST", base+"/rooms/"+room+"/files/"+name+"/restore", strings.NewReader(fmt.Sprintf(`{"version":%d}`, v)))
	req.Header.Set("Authorization", "Bearer "+token)
	return fileAnswer(req)
}

func fileAnswer(req *http.Request) (int, int, string) {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, ""
	}
	defer resp.Body.Close()
	var f struct {
		Version int    `json:"version"`
		SHA256  string `json:"sha256"`
		Changed bool   `json:"changed"`
	}
	if json.NewDecoder(resp.Body).Decode(&f) != nil || resp.StatusCode/100 != 2 || !f.Changed {
		return resp.StatusCode, 0, ""
	}
	return resp.StatusCode, f.Version, f.SHA256
}

func deleteReq(ctx context.Context, base, token, room, name string) (int, error) {
	req, _ := http.NewRequestWithContext(ctx, "DELETE", base+"/rooms/"+room+"/files/"+name, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

func getAuthJSON(t *testing.T, url, token string, v any) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s = %d", url, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}
