package gate

import "testing"

func TestAdviceList(t *testing.T) {
	for _, c := range []struct {
		title, content string
		want           bool
	}{
		{"Docker image hygiene", "Keep your Docker images lean with multi-stage builds, scan them with Trivy, pin base images and avoid running as root.", true},
		{"Elasticsearch cluster health", "Keep Elasticsearch healthy by sizing shards appropriately, using ILM for retention, monitoring heap pressure in Kibana and planning capacity ahead.", true},
		{"Nginx 설정 주의점", "Nginx를 쓸 때는 타임아웃과 버퍼 설정을 상황에 맞게 조절하고, 로그를 잘 남기며, 보안 헤더를 빠짐없이 넣어야 합니다.", true},
		{"GitLab CI 속도 개선", "GitLab CI는 캐시와 아티팩트를 잘 활용하고 잡을 병렬로 나누며, 러너 사양을 워크로드에 맞게 고르면 훨씬 빨라집니다.", true},
		// A detail a reader can look up, a code name or a code span.
		{"Docker image hygiene", "Keep images lean with multi-stage builds, scan them with Trivy 0.48, pin base images and avoid running as root.", false},
		{"Kafka consumers", "Keep handlers short, commit offsets after processing and tune max.poll.records when batches are slow.", false},
		{"Nginx timeouts", "Keep uploads on their own location, set `proxy_read_timeout 300s;` there and leave the default elsewhere.", false},
		// Two imperatives are a fix, not a list.
		{"Context value re-renders", "Passing a new object each render re-renders every consumer. Memoize it with useMemo or split state into two providers.", false},
		// Long advice that says why is left to the other rules.
		{"Agents that read untrusted issues", "An agent that triages public issues will read text written by strangers. Give that workflow a token scoped to the one repository, keep secrets out of its environment, and review what it proposes before it merges, because a comment can tell it to do anything the token allows.", false},
		// Nouns at a clause's head are no imperative.
		{"Project memory file", "Keep the file under a page: build command, test command, and the conventions a newcomer would get wrong.", false},
	} {
		_, found := Specificity(c.title, c.content)
		if got := adviceList(c.title, c.content, found); got != c.want {
			t.Errorf("adviceList(%q) = %v, want %v (found %v)", c.title, got, c.want, found)
		}
	}
}
