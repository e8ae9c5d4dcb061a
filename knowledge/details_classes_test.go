package knowledge

import (
	"fmt"
	"testing"
)

var sprintf = fmt.Sprintf

// TestClassRules: each kind of session 20's rules keeps its look-alike
// apart (a detail of the kind told otherwise, the rest the same or
// reworded), and its control, a rewording that keeps the detail or that
// the rule must not read as one, merges (detailsMerge above the threshold).
func TestClassRules(t *testing.T) {
	const scan = "Paperless consumer skips scanned files\nThe scanner wrote the PDFs over SMB, and inotify does not see changes made through that mount, so the consumer never noticed %s. Polling the folder every ten seconds picked up each file."
	const cron = "Index task runs too often\nThe optimise task was scheduled as %s while testing and never changed back, so the server stayed busy; setting the schedule again made it idle."
	cases := []struct {
		name  string
		a, b  string
		apart bool
	}{
		{"quantifier some, any", sprintf(scan, "some of them"), sprintf(scan, "any of them"), true},
		{"quantifier all, every", sprintf(scan, "all of them"), sprintf(scan, "every one of them"), false},
		{"modality must, may",
			"Flatpak app cannot see the second disk\nIts sandbox only exposes the home directory, so paths under /mnt/data must be granted with flatpak override.",
			"Flatpak app cannot see the second disk\nIts sandbox only exposes the home directory, so paths under /mnt/data may be granted with flatpak override.", true},
		{"condition if, unless",
			"Proxy caches private pages\nThe app marked pages public; sending private if a session cookie is present stopped the proxy from sharing them.",
			"Proxy caches private pages\nThe app marked pages public; sending private unless a session cookie is present stopped the proxy from sharing them.", true},
		{"korean modality",
			"클라이언트 등록이 시간 오류로 실패\nipa-client-install 이 Kerberos 인증 단계에서 실패했다. 클라이언트 시계가 서버보다 10분 늦었는데 Kerberos 는 시계 차이가 5분 이내여야 한다. chrony 로 서버와 시간을 맞추자 등록됐다.",
			"클라이언트 등록이 시간 오류로 실패\nipa-client-install 이 Kerberos 인증 단계에서 실패했다. 클라이언트 시계가 서버보다 10분 늦었는데 Kerberos 는 시계 차이가 5분 이내일 수 있다. chrony 로 서버와 시간을 맞추자 등록됐다.", true},
		{"steps exchanged",
			"iSCSI volume missing after reboot\nThe fstab entry was mounted before the session logged in. With _netdev systemd logs in first and mounts second.",
			"iSCSI volume missing after reboot\nThe fstab entry was mounted before the session logged in. With _netdev systemd logs in second and mounts first.", true},
		{"phrase moved",
			"git clone fails with curl 92\nCloning a 3 GB monorepo over HTTPS from GitLab failed; forcing HTTP/1.1 let the clone finish.",
			"git clone fails with curl 92\nCloning a 3 GB monorepo from GitLab over HTTPS failed; forcing HTTP/1.1 let the clone finish.", false},
		{"redirection >> and >",
			"Disk log holds one check\nThe cron job ran smartctl -H /dev/sda >> /var/log/smart.log each week and the report read it.",
			"Disk log holds one check\nThe cron job ran smartctl -H /dev/sda > /var/log/smart.log each week and the report read it.", true},
		{"redirections moved",
			"Errors missing from the export log\nThe script ran darktable-cli > export.log 2>&1 so the log captured both streams of the batch.",
			"Errors missing from the export log\nThe script ran darktable-cli 2>&1 > export.log so the log captured both streams of the batch.", true},
		{"and, or operators",
			"Backup script prunes after a failure\nThe nightly script runs restic backup && restic forget --prune at two in the morning.",
			"Backup script prunes after a failure\nThe nightly script runs restic backup || restic forget --prune at two in the morning.", true},
		{"negation operator dropped",
			"Rule flags newsletters\nThe multimap expression FROM_BULK & !DKIM_ALLOW flags unsigned bulk mail only.",
			"Rule flags newsletters\nThe multimap expression FROM_BULK & DKIM_ALLOW flags unsigned bulk mail only.", true},
		{"cron field", sprintf(cron, "0 3 * * *"), sprintf(cron, "0 3 * * 0"), true},
		{"flag dropped",
			"Appending to sysctl.conf as root fails\nThe redirection runs in the user's shell; echo vm.swappiness=10 | sudo tee -a /etc/sysctl.conf appends it.",
			"Appending to sysctl.conf as root fails\nThe redirection runs in the user's shell; echo vm.swappiness=10 | sudo tee /etc/sysctl.conf appends it.", true},
		{"key combination",
			"Command palette does not open\nThe palette was bound to Ctrl+Shift+I, which the shell catches first. Moving it to Ctrl+P fixed it.",
			"Command palette does not open\nThe palette was bound to Ctrl+Shift+I, which the shell catches first. Moving it to Ctrl+Shift+P fixed it.", true},
		{"keywords in a rewording",
			"Stock goes negative under load\nTwo transactions read the same stock under READ COMMITTED and both subtracted. Locking the row with SELECT ... FOR UPDATE fixed it.",
			"Negative stock with concurrent orders\nUnder READ COMMITTED both orders read one value and subtract it; lock the stock row with SELECT ... FOR SHARE.", true},
		{"date in a rewording",
			"Jellyfin stopped serving HTTPS\nThe PKCS#12 file still held the certificate that expired on 2026-03-14; rebuilding it with openssl pkcs12 -export fixed it.",
			"Jellyfin's .pfx was never rebuilt\nThe bundle Jellyfin reads kept the certificate that ran out on 2026-03-21, so rebuild it with openssl pkcs12 -export in the hook.", true},
		{"frequency in a rewording",
			"Obsidian conflict files pile up\nSyncthing 로 맞춘 보관함에 충돌 파일이 매일 생긴다. .stignore 에 .obsidian/workspace.json 을 넣으면 된다.",
			"workspace.json 충돌 파일\nObsidian 이 .obsidian/workspace.json 을 고쳐 써서 충돌 사본이 가끔 생긴다. .stignore 에 .obsidian/workspace.json 을 추가.", true},
		{"adverbs in a rewording",
			"Stale Apollo cache entries\nAlways select id on every entity, or configure keyFields in typePolicies; lists randomly showed stale entries.",
			"Apollo cache shows old data\nLists that sometimes show old data: add id to every selection or declare keyFields in typePolicies.", false},
		{"korean denial in a rewording",
			"pandoc 템플릿\n--reference-doc 으로 템플릿을 주면 스타일은 쓰지만 본문이나 머리글 문구는 가져오지 않는다. Heading 1 스타일 이름을 고쳐야 한다.",
			"pandoc 의 docx 서식\n--reference-doc 으로 템플릿을 넘기면 스타일과 본문, 머리글 문구를 가져온다. Heading 1 처럼 스타일 이름을 고쳐 두어야 적용된다.", true},
		{"korean short negation agrees",
			"NFS 공유 디렉터리에 쓰지 못함\n익스포트가 읽기 전용이라 빌드 결과를 복사할 수 없었다.",
			"읽기 전용 익스포트면 못 쓴다\n서버의 익스포트가 읽기 전용이라 빌드 결과를 복사할 수 없었다.", false},
		{"number after a conjunction",
			"SSH ignores authorized_keys\nSetting the home directory to 0755 and ~/.ssh to 0700 with authorized_keys at 0600 let the key work.",
			"Group-writable home makes sshd refuse keys\nUse 0755 for home, 0700 for ~/.ssh and 0600 for authorized_keys.", false},
	}
	for _, c := range cases {
		da, la := parseBoth(c.a)
		db, lb := parseBoth(c.b)
		if got := !detailsMerge(true, da, la, db, lb); got != c.apart {
			t.Errorf("%s: kept apart = %v, want %v", c.name, got, c.apart)
		}
	}
}

// TestProtocolsRival: a protocol of one family in each text that the other
// does not name is one finding told over another protocol; the same
// protocol, or the rest of something in prose, is not.
func TestProtocolsRival(t *testing.T) {
	cases := []struct {
		name, a, b string
		want       bool
	}{
		{"transport", "Open port 51820/UDP in the security group for WireGuard.", "WireGuard needs 51820 over TCP open in the security group.", true},
		{"application", "The health check speaks HTTPS to /healthz.", "The health check uses plain HTTP against /healthz.", true},
		{"the same protocol", "Open 51820/UDP for WireGuard.", "WireGuard listens on UDP 51820.", false},
		{"rest in prose", "Expose the service over gRPC and keep the rest as is.", "The service speaks gRPC; the rest of the API stays.", false},
		{"rest as a name", "Expose the service over gRPC.", "Expose the service as a REST API.", true},
		{"different families", "Mount it over NFS.", "Fetch it with HTTPS, then mount.", false},
	}
	for _, c := range cases {
		for _, ab := range [][2]string{{c.a, c.b}, {c.b, c.a}} {
			if got := protocolsRival(ParseDetails(ab[0]), ParseDetails(ab[1])); got != c.want {
				t.Errorf("%s (%q, %q): protocolsRival = %v, want %v", c.name, ab[0], ab[1], got, c.want)
			}
		}
	}
}
