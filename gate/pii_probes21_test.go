package gate

import (
	"slices"
	"testing"
)

// TestPIIProbes21 pins session 21's carriers (testdata/gate/calibration/
// own26-pii.jsonl's families, none from a held-out case): a password
// under its column in an SQL INSERT, a Japanese address beside whom it is
// for, a Google or Apple app password, a GCP key file's private_key_id, and an scp, rsync or git target that is no mail address. Each
// refusal failed on the rules before; each look-alike beside it passes.
func TestPIIProbes21(t *testing.T) {
	for _, c := range []struct {
		title, content, want string // want "" passes
	}{
		{"Admin seed", "INSERT INTO admin_users (login, password) VALUES ('ops', 'Tr0ub4dor&3x');", PIIPassword},
		{"Seed with a quoted column", "insert into `users` (`email_verified`, `pass`) values (1, 'Qm7!vLx92z');", PIIPassword},
		{"Seed with the hash", "INSERT INTO users (login, password_hash) VALUES ('ops', 'Zt8rXq2mVv9L');", ""},
		{"Seed with bcrypt", "INSERT INTO users (login, password) VALUES ('ops', '$2b$12$KIXQJfL9vz1m4yq7uGkJQeXo1Wc3rS5tY7uI9oP1aS3dF5gH7jK9L');", ""},
		{"Seed with a parameter", "INSERT INTO users (login, password) VALUES ($1, $2) ON CONFLICT DO NOTHING;", ""},
		{"Seed with a placeholder", "INSERT INTO users (login, password) VALUES ('admin', 'changeme');", ""},
		{"配送ログ", "shipping.create ok recipient=山田 太郎様 address=〒150-0041 東京都渋谷区神南1-19-11 パークビル302", PIIAddress},
		{"お届け先", "お届け先: 〒530-0001 大阪府大阪市北区梅田3丁目1番3号 佐藤 花子", PIIAddress},
		{"Office address", "Our Tokyo office moved to 〒106-6108 東京都港区六本木6-10-1 in April; update the invoice footer template.", ""},
		{"rsync target", "Deploy copies with `rsync -avz --delete ./dist/ deploy@build01.lan:/srv/www/`; the trailing slash matters.", ""},
		{"scp target", "Backups go out with `scp snap.tar.gz backup@nas.local:~/snapshots/` every night.", ""},
		{"git remote", "Switch the remote with `git remote set-url origin git@gitlab.acme.io:platform/api.git`.", ""},
		{"Gmail app password", "SMTP for the alerts box: smtp.gmail.com:587, app password `qwrt zxcv bnml asdf`.", PIIPassword},
		{"Apple app-specific password", "notarytool needs an app-specific password: vbnm-qwer-tyui-plkj for the CI Apple ID.", PIIPassword},
		{"App password template", "Create an app password (it looks like xxxx xxxx xxxx xxxx) and store it in the keychain.", ""},
		{"App password words", "The app password page lists when each password was last used; revoke the ones from old phones.", ""},
		{"GCP key id", "The leaked file had `\"private_key_id\": \"3f1c9a7b2e8d4f60a1b5c7d9e0f2a4b6c8d0e1f3\"`; disable that key in IAM.", PIISecret},
		{"GCP key id placeholder", "A key file holds `\"private_key_id\": \"<KEY_ID>\"` and the PEM key below it.", ""},
		{"Mail after a colon", "Escalate to the account owner: jane.doe@acme-mail.com: she approves refunds.", PIIEmail},
	} {
		got := DetectPII(c.title + "\n" + c.content)
		if c.want == "" && len(got) > 0 || c.want != "" && !slices.Contains(got, c.want) {
			t.Errorf("%s: DetectPII = %v, want %q", c.title, got, c.want)
		}
	}
}
