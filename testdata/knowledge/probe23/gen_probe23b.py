#!/usr/bin/env python3
"""Writes pairs2.jsonl: session 23's second probe (look23), written after
details_literals.go and tailsSwapped landed, before any change for it, in
the shape and two voices of gen_probe23.py. Kinds: a version range's
operator (^ ~ == >=), a time unit in words (microseconds, milliseconds), a
Korean bound (이상, 이하, 초과, 미만), a minimum or maximum, an
endianness, a docker tag, a glob's depth, a regex anchor, a git revision's
offset, a Korean before or after, an IPv4 address's last octet, a SQL
isolation level, a unit of binary or decimal size; with rewordings that
keep the detail. Run: python3 gen_probe23b.py (prints OK and rewrites
pairs2.jsonl).
"""
from probe_pairs import alike, reworded, write

alike("p23b-range-en-caret", "version_range", "en", "prose",
 ("CI pulled a breaking minor release of a dependency",
  "Builds broke overnight because package.json declared \"eslint-plugin-import\": \"^2.27.0\", which let npm install 2.29 with a new rule enabled by default. Pinning it with a lockfile in CI fixed the drift."),
 ("Overnight lint failures from a dependency's minor update",
  "Our lint step started failing without any commit: the manifest had eslint-plugin-import at \"~2.27.0\" and npm resolved a newer release that enables an extra rule. Committing the lockfile and using npm ci stopped it."),
 "^2.27.0", "~2.27.0")
alike("p23b-range-en-pip", "version_range", "en", "prose",
 ("requests upgrade broke the proxy settings",
  "After a fresh image build, HTTPS through the corporate proxy failed because requirements.txt said requests>=2.31 and pip picked the newest release. Pin exact versions in the image."),
 ("Proxy errors after rebuilding the image",
  "The new image could no longer reach HTTPS hosts via the proxy; requirements.txt had requests==2.31, and pip installed the latest. Exact pins in the image avoid that."),
 ">=2.31", "==2.31")
alike("p23b-unit-en-micro", "time_word", "en", "prose",
 ("Tail latency from the Redis client's socket timeout",
  "p99 latency spiked because the client library's socket timeout was 500 microseconds, so requests during a GC pause were retried immediately and piled up."),
 ("Redis client retries piled up at p99",
  "With a socket timeout of 500 milliseconds in the client library, calls that hit a GC pause got retried at once and the p99 latency jumped."),
 "microseconds", "milliseconds")
alike("p23b-bound-ko-mem", "ko_bound", "ko", "prose",
 ("Elasticsearch 노드가 자꾸 죽을 때 힙 크기",
  "힙을 물리 메모리의 절반 이상으로 잡았더니 파일 캐시가 부족해져 노드가 OOM으로 죽었다. ES_JAVA_OPTS의 -Xmx를 조정해 해결했다."),
 ("ES 노드 OOM과 힙 설정",
  "ES_JAVA_OPTS에서 -Xmx로 힙을 물리 메모리 절반 이하로 설정해 두었는데도 노드가 OOM으로 종료되어 파일 캐시를 확인했다."),
 "이상", "이하")
alike("p23b-bound-ko-conn", "ko_bound", "ko", "prose",
 ("PgBouncer 연결 수 초과 오류",
  "애플리케이션 풀 크기 합이 max_client_conn 100을 초과하면 새 연결이 거절된다. 풀 크기를 줄여 해결했다."),
 ("PgBouncer가 연결을 거절하는 조건",
  "앱들의 풀 크기 합계가 max_client_conn 100 미만이면 새 연결이 거부된다. 각 풀을 작게 조정해 해결했다."),
 "초과", "미만")
alike("p23b-minmax-en-pool", "min_max", "en", "prose",
 ("HikariCP pool exhausted under load",
  "Requests timed out waiting for a connection because maximumPoolSize was 10 while the service ran 40 worker threads; raising the maximum to 40 fixed it."),
 ("Connection wait timeouts with HikariCP",
  "With 40 worker threads and a HikariCP minimum of 10 connections, threads waited until timing out; we raised that to 40 and the timeouts stopped."),
 "maximum", "minimum")
alike("p23b-endian-en-parse", "endianness", "en", "prose",
 ("Sensor readings decoded as garbage",
  "Values from the Modbus sensor came out as huge numbers because the registers are big-endian and our parser used struct.unpack('<H') on them."),
 ("Modbus values decode to nonsense",
  "Our decoder used struct.unpack('<H') on registers that the sensor sends little-endian, which turned every reading into a huge number."),
 "big-endian", "little-endian")
alike("p23b-tag-en-docker", "docker_tag", "en", "prose",
 ("Image pulled in CI differs from the one tested locally",
  "CI pulled postgres:latest while developers had an older image cached, so migrations passed locally and failed in CI. Pin postgres:16.2 in compose.yaml."),
 ("Migrations fail only in CI",
  "The compose file referenced postgres:alpine, and CI pulled a fresh one while laptops used a stale cached image. Pin postgres:16.2 in compose.yaml."),
 "postgres:latest", "postgres:alpine")
alike("p23b-glob-en-ignore", "glob", "en", "prose",
 ("Log files still committed in subfolders",
  "The .gitignore line *.log only ignored logs at the top of the repo in our tooling; we switched to **/*.log so nested logs are ignored too."),
 ("Nested log files showing up in git status",
  "Logs inside subdirectories were still tracked, so we changed the .gitignore entry to logs/*.log, which covers them."),
 "**/*.log", "logs/*.log")
alike("p23b-anchor-en-regex", "regex_anchor", "en", "prose",
 ("Allowlist regex let other hosts through",
  "The CORS allowlist matched evil-example.com because the pattern example\\.com$ had no start anchor; use ^https://example\\.com$ instead."),
 ("CORS regex accepted a look-alike domain",
  "Our origin check accepted evil-example.com: the pattern ^example\\.com lacked an anchor at the start of the host. Match ^https://example\\.com$ instead."),
 "example\\.com$", "^example\\.com")
alike("p23b-rev-en-head", "git_rev", "en", "prose",
 ("Undoing the last two commits before pushing",
  "To drop the two local commits and keep their changes staged, run git reset --soft HEAD~2, then commit again."),
 ("Squash local commits before pushing",
  "git reset --soft HEAD~1 rewinds the branch over the local commits while keeping the changes staged; commit once afterwards."),
 "HEAD~2", "HEAD~1")
alike("p23b-order-ko-migrate", "ko_order", "ko", "prose",
 ("배포 전 마이그레이션 순서",
  "새 컬럼을 읽는 코드가 먼저 나가서 500 오류가 났다. 마이그레이션은 배포 전에 실행해야 한다."),
 ("마이그레이션을 언제 돌릴까",
  "새 컬럼을 사용하는 코드가 배포되면서 500 에러가 발생했다. 마이그레이션은 배포 후에 돌려야 한다."),
 "전에", "후에")
alike("p23b-ip-en-dns", "ipv4", "en", "prose",
 ("Containers cannot resolve internal hostnames",
  "Lookups of *.corp names failed inside containers because /etc/resolv.conf pointed at 10.0.0.2, the VPC resolver, instead of the corporate DNS server at 10.0.0.53."),
 ("Internal DNS names fail to resolve in Docker",
  "Docker copied a resolv.conf with nameserver 10.0.0.53 into the containers, so *.corp names did not resolve; the corporate DNS is the one at 10.0.0.2."),
 "10.0.0.2", "10.0.0.53")
alike("p23b-iso-en-tx", "isolation", "en", "prose",
 ("Lost updates on the account balance",
  "Two concurrent transfers both read the old balance and one update was lost; the transactions ran at READ COMMITTED. Using SELECT ... FOR UPDATE fixed it."),
 ("Concurrent transfers overwrite each other",
  "At REPEATABLE READ isolation, two transfers read the same balance and one write was lost. Locking the row with SELECT ... FOR UPDATE solved it."),
 "READ COMMITTED", "REPEATABLE READ")
alike("p23b-size-en-mi", "size_unit", "en", "prose",
 ("Pod OOMKilled despite a 512 limit",
  "The container was OOMKilled at startup: its memory limit was written as 512M in the manifest, which is not 512Mi, and the JVM heap was sized for the latter."),
 ("OOMKilled pod and the memory limit's unit",
  "Our manifest set the memory limit to 512k, and the JVM heap sized for 512Mi got the container OOMKilled on start."),
 "512M", "512k")
alike("p23b-minmax-ko-replica", "min_max", "ko", "prose",
 ("HPA가 파드를 줄이지 않을 때",
  "트래픽이 줄어도 파드 수가 그대로였다. HPA의 최소 레플리카가 10으로 되어 있었기 때문이다."),
 ("트래픽이 줄어도 HPA가 축소하지 않는 원인",
  "HPA 최대 레플리카 값이 10으로 잡혀 있어서 부하가 내려가도 파드가 줄지 않았다."),
 "최소", "최대")

reworded("p23b-range-en-caret", "version_range", "en", "prose",
 ("CI pulled a breaking minor release of a dependency",
  "Builds broke overnight because package.json declared \"eslint-plugin-import\": \"^2.27.0\", which let npm install 2.29 with a new rule enabled by default. Pinning it with a lockfile in CI fixed the drift."),
 ("Overnight lint failures from a dependency's minor update",
  "Our lint step started failing without any commit: the manifest had eslint-plugin-import at \"^2.27.0\" and npm resolved a newer release that enables an extra rule. Committing the lockfile and using npm ci stopped it."),
 "^2.27.0")
reworded("p23b-unit-en-micro", "time_word", "en", "prose",
 ("Tail latency from the Redis client's socket timeout",
  "p99 latency spiked because the client library's socket timeout was 500 microseconds, so requests during a GC pause were retried immediately and piled up."),
 ("Redis client retries piled up at p99",
  "With a socket timeout of 500 microseconds in the client library, calls that hit a GC pause got retried at once and the p99 latency jumped."),
 "microseconds")
reworded("p23b-bound-ko-conn", "ko_bound", "ko", "prose",
 ("PgBouncer 연결 수 초과 오류",
  "애플리케이션 풀 크기 합이 max_client_conn 100을 초과하면 새 연결이 거절된다. 풀 크기를 줄여 해결했다."),
 ("PgBouncer가 연결을 거절하는 조건",
  "앱들의 풀 크기 합계가 max_client_conn 100을 초과하면 새 연결이 거부된다. 각 풀을 작게 조정해 해결했다."),
 "초과")
reworded("p23b-endian-en-parse", "endianness", "en", "prose",
 ("Sensor readings decoded as garbage",
  "Values from the Modbus sensor came out as huge numbers because the registers are big-endian and our parser used struct.unpack('<H') on them."),
 ("Modbus values decode to nonsense",
  "Our decoder used struct.unpack('<H') on registers that the sensor sends big-endian, which turned every reading into a huge number."),
 "big-endian")
reworded("p23b-rev-en-head", "git_rev", "en", "prose",
 ("Undoing the last two commits before pushing",
  "To drop the two local commits and keep their changes staged, run git reset --soft HEAD~2, then commit again."),
 ("Squash local commits before pushing",
  "git reset --soft HEAD~2 rewinds the branch over the local commits while keeping the changes staged; commit once afterwards."),
 "HEAD~2")
reworded("p23b-ip-en-dns", "ipv4", "en", "prose",
 ("Containers cannot resolve internal hostnames",
  "Lookups of *.corp names failed inside containers because /etc/resolv.conf pointed at 10.0.0.2, the VPC resolver, instead of the corporate DNS server at 10.0.0.53."),
 ("Internal DNS names fail to resolve in Docker",
  "Docker copied a resolv.conf with nameserver 10.0.0.2 into the containers, so *.corp names did not resolve; the corporate DNS is the one at 10.0.0.53."),
 "10.0.0.2")
reworded("p23b-iso-en-tx", "isolation", "en", "prose",
 ("Lost updates on the account balance",
  "Two concurrent transfers both read the old balance and one update was lost; the transactions ran at READ COMMITTED. Using SELECT ... FOR UPDATE fixed it."),
 ("Concurrent transfers overwrite each other",
  "At READ COMMITTED isolation, two transfers read the same balance and one write was lost. Locking the row with SELECT ... FOR UPDATE solved it."),
 "READ COMMITTED")
reworded("p23b-minmax-en-pool", "min_max", "en", "prose",
 ("HikariCP pool exhausted under load",
  "Requests timed out waiting for a connection because maximumPoolSize was 10 while the service ran 40 worker threads; raising the maximum to 40 fixed it."),
 ("Connection wait timeouts with HikariCP",
  "With 40 worker threads and a HikariCP maximumPoolSize of 10 connections, threads waited until timing out; we raised the maximum to 40 and the timeouts stopped."),
 "maximum")
reworded("p23b-order-ko-migrate", "ko_order", "ko", "prose",
 ("배포 전 마이그레이션 순서",
  "새 컬럼을 읽는 코드가 먼저 나가서 500 오류가 났다. 마이그레이션은 배포 전에 실행해야 한다."),
 ("마이그레이션을 언제 돌릴까",
  "새 컬럼을 사용하는 코드가 배포되면서 500 에러가 발생했다. 마이그레이션은 배포 전에 돌려야 한다."),
 "전에")
reworded("p23b-glob-en-ignore", "glob", "en", "prose",
 ("Log files still committed in subfolders",
  "The .gitignore line *.log only ignored logs at the top of the repo in our tooling; we switched to **/*.log so nested logs are ignored too."),
 ("Nested log files showing up in git status",
  "Logs inside subdirectories were still tracked, so we changed the .gitignore entry to **/*.log, which covers them."),
 "**/*.log")

write("pairs2.jsonl")
