package gate

import (
	"strings"
	"testing"
)

// TestVendorTokensMore pins more services' token prefixes and commands
// that take a password on their command line, each beside a look-alike
// that must pass (masked, templated, a variable, a word).
func TestVendorTokensMore(t *testing.T) {
	tests := []struct {
		text string
		want string
	}{
		{"gem push with GEM_HOST_API_KEY=rubygems_3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e5b7d", PIIAPIToken},
		{"export TF_TOKEN=Xq7vLm2Kp9Rt4w.atlasv1.Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd5Fg6Jk0Lm3Np8Qr2St7Uv4Wx9Yz1Ab6Cd3Ef5Gh", PIIAPIToken},
		{"Figma token figd_Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd5Fg6Jk0Lm3Np8Qr2St", PIIAPIToken},
		{"LangSmith key 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", PIIAPIToken},
		{"토스페이먼츠 시크릿 키 live_sk_Zq8vL2mKp4Tw9Rx3Nb7Y 를 커밋했다", PIIAPIToken},
		{"토스 문서의 테스트 키 test_gsk_docs_OaPz8L5KdmQXkzRz3y47BMw6", ""},
		{"Twilio API key SK3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e", PIIAPIToken},
		{"Twilio API key SKxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", ""},
		{"Alibaba AccessKey LTAI5tQ8vL2mKp4Tw9Rx3Nb7", PIIAPIToken},
		{"bot token MTA5NjYxNzQ1Mzk5NTQ2MDgwNw.GhT2xQ.Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd5Fg6Jk0Lm3Np", PIIAPIToken},
		{"Microsoft.Extensions.DependencyInjection.ServiceCollectionContainerBuilderExtensions", ""},
		// Passwords on more command lines.
		{"pscp -pw Kq9vT3xWm7 backup.tar deploy@bastion:/srv", PIIPassword},
		{"pscp -pw %PSCP_PW% backup.tar deploy@bastion:/srv", ""},
		{"net user svc_backup Wm7!kq9vT3 /add", PIIPassword},
		{"net user svc_backup * /add", ""},
		{"rman target sys/Kq9vT3xWm7@ORCL", PIIPassword},
		{"expdp system/Kq9vT3xWm7@ORCL schemas=APP directory=DP", PIIPassword},
		{"the exp claim is checked first; go install example/app2@latest", ""},
		{"pytest -k test_sk_learn_compatible_estimators_pipeline", ""},
		{"cqlsh -u cassandra -p Kq9vT3xWm7 10.0.0.5", PIIPassword},
		{"echo 'Kq9vT3xWm7' | sudo -S systemctl restart app", PIIPassword},
		{"echo \"$SUDO_PASSWORD\" | sudo -S systemctl restart app", ""},
		{"echo 'deploy:Kq9vT3xWm7' | chpasswd", PIIPassword},
		{"vault login hvs.Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd", PIIAPIToken},
		{"vault login -method=oidc", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(DetectPII(tt.text), ","); got != tt.want {
			t.Errorf("DetectPII(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
