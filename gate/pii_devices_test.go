package gate

import (
	"slices"
	"testing"
)

// TestPersonalMachine checks a device's hardware address or serial beside
// its user, and a person's own public address, against the look-alikes:
// containers' and VMs' MACs, a rack's serials, attackers' and private
// addresses, documentation's.
func TestPersonalMachine(t *testing.T) {
	for _, c := range []struct {
		text string
		kind string
		want bool
	}{
		{"Crash log from the reporter: path /Users/mina.seo/Library/Logs, wifi MAC 8c:85:90:1d:4e:33", PIIDeviceID, true},
		{"dhcpd: DHCPACK on 192.168.1.40 to a4:83:e7:12:9b:cd (dana-MacBook-Pro) via eth0", PIIDeviceID, true},
		{"system_profiler 결과:\n  Serial Number (system): FVFXK2ABQ6L4\n사용자: 윤서아 (재무팀)", PIIDeviceID, true},
		{"docker: the container's MAC 02:42:ac:11:00:02 on the bridge", PIIDeviceID, false},
		{"Set the VM's NIC to 52:54:00:12:34:56 in the libvirt XML", PIIDeviceID, false},
		{"The switch port learned 3c:22:fb:91:0a:6e on VLAN 20", PIIDeviceID, false},
		{"ssh key in /home/ubuntu/.ssh; the NIC is 3c:22:fb:91:0a:6e", PIIDeviceID, false},
		{"Serial C02FK4Q7MD6T is the build Mac mini in rack 3", PIIDeviceID, false},
		{"fail2ban locked out my home broadband address 81.174.22.9 after three tries", PIIIPAddress, true},
		{"보안그룹에 우리 집 공인 IP 만 열었다.\n```\naws ec2 authorize-security-group-ingress --cidr 175.223.10.44/32\n```", PIIIPAddress, true},
		{"sshd[912]: Accepted publickey for mkim from 175.223.10.44 port 50122 ssh2", PIIIPAddress, true},
		{"sshd[912]: Failed password for invalid user admin from 45.155.205.233 port 40022 ssh2", PIIIPAddress, false},
		{"Our home lab gateway forwards port 443 to 10.0.0.5", PIIIPAddress, false},
		{"My home IP changes daily; the docs use 203.0.113.7 for it.", PIIIPAddress, false},
		{"Point the resolver at 8.8.8.8 and 1.1.1.1", PIIIPAddress, false},
		{"Home Assistant's IP address setting: point the webhook at 34.117.59.81 behind the proxy", PIIIPAddress, false},
		{"Tutorial: /home/alice/.config holds it; the NIC is 3c:22:fb:91:0a:6e", PIIDeviceID, false},
	} {
		got := slices.Contains(DetectPII(c.text), c.kind)
		if got != c.want {
			t.Errorf("%s in %q = %v, want %v", c.kind, c.text, got, c.want)
		}
	}
}
