package knowledge

import "testing"

func TestAsksHowTo(t *testing.T) {
	howTo := []string{
		"Write a dbt test that checks a column is unique.",
		"Convert this callback-based file reader to async/await",
		"bigquery: how do I write a query that unnests an array column",
		"Can you generate SQL CREATE TABLE statements for a library system?",
		"What's a good format for the JSON body of a REST API response?",
		"커밋 메시지 작성해줘",
		"S3 버킷에 정적 웹사이트 호스팅 설정하는 방법 알려줘",
		"nginx 에서 gzip 압축 켜는 법",
		"리액트에서 폼 상태를 관리하는 예시 보여 줘",
	}
	problem := []string{
		"Restarting my dev server gives 'bind: address already in use' on 8080. How do I find what's holding it?",
		"how do I fix ECONNRESET when the upload takes longer than a minute",
		"pods keep restarting with CrashLoopBackOff, how do I see the previous logs",
		"Placeholders don't work in ORDER BY, so how do I avoid SQL injection?",
		"Why does my cron job run twice?",
		"파드가 계속 재시작되는데 죽기 직전 로그를 볼 방법이 있어?",
		"빌드가 갑자기 느려졌어. 원인 찾는 방법 알려줘",
		"the Go service gets OOMKilled at 512Mi; how do I make the GC run sooner",
		"upload returns 413 from nginx, how do I raise the limit",
		"Spark 잡이 파티션마다 작은 parquet 파일을 수천 개 만들어.", // a statement, not a request
		"", "   ",
	}
	for _, q := range howTo {
		if !AsksHowTo(q) {
			t.Errorf("AsksHowTo(%q) = false, want true", q)
		}
	}
	for _, q := range problem {
		if AsksHowTo(q) {
			t.Errorf("AsksHowTo(%q) = true, want false (it reports a problem or asks nothing)", q)
		}
	}
}

func TestIntentWeight(t *testing.T) {
	lexical := LexicalModelPrefix + "test"
	if got := IntentWeight(lexical, "write a dockerfile for a go service"); got != HowToWeight {
		t.Errorf("lexical how-to weight = %v, want %v", got, HowToWeight)
	}
	if got := IntentWeight(lexical, "docker build fails with no space left on device"); got != 1 {
		t.Errorf("lexical problem weight = %v, want 1", got)
	}
	// A semantic embedder's floor was measured without the weight.
	if got := IntentWeight("text-embedding-3-small", "write a dockerfile for a go service"); got != 1 {
		t.Errorf("semantic how-to weight = %v, want 1", got)
	}
}
