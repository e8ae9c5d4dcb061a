#!/usr/bin/env python3
"""Writes pairs3.jsonl: session 23's third probe (look23b), written after
details_bounds.go and signalName landed (93df3f4), before any change for it,
in the shape and two voices of gen_probe23.py. Kinds: a regex anchor, two
values with their roles swapped, a size unit's letter (512m / 512k), an HTTP
status, a file mode, an environment's name, a negated verb (do / don't,
enable / disable), a cloud region, a CPU architecture, a text encoding, a
time zone, a sort order, Korean on / off (켜다 / 끄다) and include / exclude
(포함 / 제외), a protocol, a mount's access, a join, line endings, a pull
policy, a merge mode; rewordings keep the detail (most are a look-alike's
two texts with the detail agreeing). Run: python3 gen_probe23c.py (prints OK
and rewrites pairs3.jsonl).
"""
from probe_pairs import alike, reworded, write
alike("p23c-anchor-en-route", "regex_anchor", "en", "code",
 ("Health checks matched every path",
  "The ingress rule used the pattern `/healthz` without anchors, so /api/healthz-report also skipped auth. Write it as `^/healthz$`."),
 ("Auth bypass through the health route regex",
  "Because the path regex for the probe was written `/healthz$`, anything ending in healthz skipped authentication, including /admin/healthz. Anchor both ends."),
 "^/healthz$", "/healthz$")
alike("p23c-swap-en-docker-port", "swapped_roles", "en", "code",
 ("Container unreachable on the host port",
  "We ran `docker run -p 8080:80 nginx`, so the host listens on 8080 and forwards to nginx's port 80 inside the container."),
 ("Publishing nginx on the right port",
  "The fix was `docker run -p 80:8080 nginx`: host port 80 is forwarded to 8080 in the container, where our config makes nginx listen."),
 "8080:80", "80:8080", reword=True)
alike("p23c-swap-en-region-copy", "swapped_roles", "en", "prose",
 ("S3 replication went the wrong way",
  "Cross-region replication is configured from us-east-1 to eu-west-1; objects written in eu-west-1 are not copied back, so readers in the US see stale data."),
 ("One-way S3 replication surprised readers",
  "Our bucket replicates from eu-west-1 to us-east-1 only. Writes in us-east-1 never reach the EU bucket, which is why European readers saw old objects."),
 "from us-east-1 to eu-west-1", "from eu-west-1 to us-east-1")
alike("p23c-unit-en-xss", "size_unit", "en", "code",
 ("StackOverflowError in deep recursion",
  "The parser thread died on large inputs until we started the JVM with -Xss512m; the default thread stack is far too small for that recursion depth."),
 ("Raising the JVM thread stack for the recursive parser",
  "Deeply nested documents crashed the parser with StackOverflowError. Passing -Xss512k to the JVM gave each thread enough stack."),
 "-Xss512m", "-Xss512k", reword=True)
alike("p23c-status-en-auth", "http_status", "en", "prose",
 ("API gateway returns 401 for expired tokens",
  "Clients kept retrying with the same token because the gateway answered 401 when the JWT had expired; refresh the token on that status instead of retrying."),
 ("Expired JWTs come back as 403 from the gateway",
  "The gateway replies with HTTP 403 once a token's exp has passed, and our client retried blindly. On that status the client must refresh its token first."),
 "401", "403", reword=True)
alike("p23c-status-en-lb", "http_status", "en", "prose",
 ("ALB 502 after deploy",
  "The load balancer returned 502 for a minute after each deploy because the old tasks were killed before draining. Set a deregistration delay longer than the longest request."),
 ("Gateway errors right after deployments",
  "Right after every rollout the ALB answered with 504 errors, since tasks were stopped before connections drained; the deregistration delay must exceed the slowest request."),
 "502", "504", reword=True)
alike("p23c-mode-en-key", "file_mode", "en", "code",
 ("ssh refuses the private key",
  "ssh ignored ~/.ssh/id_ed25519 with 'UNPROTECTED PRIVATE KEY FILE' until we ran chmod 0600 on it."),
 ("Fixing key permissions for ssh",
  "After copying the key from a backup, ssh complained it was unprotected; chmod 0644 ~/.ssh/id_ed25519 made it usable again."),
 "0600", "0644", reword=True)
alike("p23c-mode-en-script", "file_mode", "en", "code",
 ("Deploy hook not executable",
  "The git hook never ran because the file had mode 644; set it to 755 with chmod so git can execute it."),
 ("Hook silently skipped by git",
  "git skipped the post-receive hook: its permissions were 644. Running chmod 775 on the hook fixed it."),
 "755", "775")
alike("p23c-env-en-migrate", "env_name", "en", "prose",
 ("Migrations must run with the prod profile",
  "Running flyway migrate without -Dspring.profiles.active=prod pointed at the local database; the release job now sets the prod profile explicitly."),
 ("Release job ran migrations against the wrong database",
  "flyway migrate used the default datasource until we passed -Dspring.profiles.active=staging in the release pipeline."),
 "prod", "staging")
alike("p23c-neg-en-cache", "negated_verb", "en", "prose",
 ("Enable the BuildKit cache mount for pip",
  "Docker builds were slow because pip downloaded every wheel each time; enable the cache mount with RUN --mount=type=cache,target=/root/.cache/pip."),
 ("pip cache in Docker builds",
  "Builds redownloaded all wheels. We disable the pip cache mount (RUN --mount=type=cache,target=/root/.cache/pip) so layers stay reproducible."),
 "enable", "disable")
alike("p23c-neg-en-force", "negated_verb", "en", "prose",
 ("Force-push to the shared release branch",
  "After rewriting the changelog commit, do force-push the release branch with --force-with-lease so the tag points at the fixed history."),
 ("Rewritten history on the release branch",
  "Once the changelog commit is rewritten, don't force-push the release branch even with --force-with-lease; tag the fixed commit on top instead."),
 "do force-push", "don't force-push")
alike("p23c-neg-en-swap", "negated_verb", "en", "config",
 ("Kubelet swap setting on worker nodes",
  "kubelet refused to start on the new workers; we had to turn swap off (swapoff -a) and keep failSwapOn: true."),
 ("Workers failed to start kubelet because of swap",
  "On the new nodes kubelet would not start until we turned swap on again and set failSwapOn: true in the kubelet config."),
 "off", "on")
alike("p23c-region-en-ecr", "region", "en", "prose",
 ("ECR pull fails from the Seoul cluster",
  "Image pulls failed with 'no basic auth credentials' because the login command used --region ap-northeast-2 while the repository lives elsewhere."),
 ("no basic auth credentials when pulling from ECR",
  "Our nodes could not pull images: aws ecr get-login-password ran with --region ap-northeast-1, not the region the registry is in."),
 "ap-northeast-2", "ap-northeast-1", reword=True)
alike("p23c-arch-en-image", "cpu_arch", "en", "prose",
 ("exec format error on the new nodes",
  "Pods crashed with 'exec format error' because the image was built only for linux/amd64; build it with buildx for both platforms."),
 ("Image crashes with exec format error",
  "On the Graviton node group the container died at start: we had pushed a linux/arm64 image only. Building multi-platform with buildx fixed it."),
 "linux/amd64", "linux/arm64", reword=True)
alike("p23c-enc-en-csv", "encoding", "en", "prose",
 ("Garbled Korean in exported CSV",
  "Excel showed broken Hangul in our CSV export until we wrote the file as UTF-8 with a BOM."),
 ("Excel mangles Hangul in the CSV download",
  "Korean names in the downloaded CSV looked garbled in Excel; writing the export in EUC-KR made them readable."),
 "UTF-8", "EUC-KR")
alike("p23c-enc-en-token", "encoding", "en", "code",
 ("Signature mismatch on webhook verification",
  "The HMAC never matched because we compared the digest as hex while the provider sends base64; encode with base64.StdEncoding before comparing."),
 ("Webhook HMAC comparison failing",
  "Every webhook failed verification: the provider's signature header is hex, and we were comparing it against a base64 digest. Encode the HMAC with hex.EncodeToString."),
 "base64", "hex")
alike("p23c-tz-en-cron", "timezone", "en", "config",
 ("Nightly job ran at the wrong hour",
  "The CronJob ran at 9 in the morning local time because schedules are evaluated in UTC; set timeZone: Asia/Seoul on the CronJob."),
 ("CronJob schedule shifted by nine hours",
  "Our backup CronJob fired nine hours off. Setting timeZone: UTC on it made the schedule read as intended."),
 "Asia/Seoul", "UTC", reword=True)
alike("p23c-tz-ko-db", "timezone", "ko", "prose",
 ("DB 타임존 때문에 날짜가 하루 밀림",
  "리포트의 날짜가 하루씩 어긋났는데 DB 세션 타임존이 UTC였다. 커넥션마다 time_zone을 KST로 설정해서 해결했다."),
 ("일별 집계가 하루 틀어지는 문제",
  "일별 집계가 하루 밀려서 확인해 보니 세션 time_zone 설정이 문제였고, 연결할 때 time_zone을 UTC로 맞추자 정상이 됐다."),
 "KST", "UTC")
alike("p23c-sort-en-page", "sort_order", "en", "code",
 ("Keyset pagination skipped rows",
  "Pages skipped rows because the cursor query used ORDER BY id ASC while the comparison was id < $1; the order and the comparison must go the same way."),
 ("Missing rows between pages with a cursor",
  "With ORDER BY id DESC and a cursor condition of id < $1 we still lost rows between pages until we made the sort and the comparison agree."),
 "ASC", "DESC", reword=True)
alike("p23c-sort-ko-log", "sort_order", "ko", "prose",
 ("최신 로그가 안 보이는 문제",
  "대시보드에서 최근 로그가 안 보였다. 쿼리가 timestamp 오름차순으로 정렬한 뒤 LIMIT 100을 걸고 있었다."),
 ("로그 화면이 오래된 것만 보여 줌",
  "로그 목록에 옛날 것만 떠서 보니 timestamp 내림차순 정렬 후 LIMIT 100으로 자르고 있었다."),
 "오름차순", "내림차순", reword=True)
alike("p23c-onoff-ko-feature", "korean_onoff", "ko", "prose",
 ("결제 장애 때 기능 플래그 처리",
  "결제 오류가 급증하면 new_checkout 플래그를 끄면 바로 예전 흐름으로 돌아간다. 배포 없이 복구할 수 있다."),
 ("새 결제 흐름 플래그로 복구하기",
  "결제 실패가 늘어날 때 new_checkout 플래그를 켜서 즉시 이전 결제 흐름으로 되돌렸고, 재배포는 필요 없었다."),
 "끄면", "켜서")
alike("p23c-onoff-ko-log", "korean_onoff", "ko", "config",
 ("운영에서 쿼리 로그 설정",
  "운영 DB에서 log_statement를 켜 두었더니 디스크가 빠르게 찼다. 장애 분석 때만 잠깐 사용하자."),
 ("쿼리 로그 때문에 디스크 부족",
  "운영 DB 디스크가 금방 찬 원인은 log_statement를 꺼 둔 설정이었다. 분석할 때만 잠시 쓰는 게 좋다."),
 "켜 두었더니", "꺼 둔")
alike("p23c-incl-ko-backup", "korean_include", "ko", "prose",
 ("백업 용량이 너무 큰 이유",
  "백업이 갑자기 커져서 보니 node_modules 디렉터리를 백업 대상에 포함하고 있었다. rsync 설정을 고쳤다."),
 ("rsync 백업이 커진 문제",
  "rsync 백업 크기가 급증했는데 설정에서 node_modules를 제외하고 있던 게 원인이었다. 설정을 수정했다."),
 "포함", "제외")
alike("p23c-incl-ko-coverage", "korean_include", "ko", "prose",
 ("커버리지 수치가 떨어진 이유",
  "커버리지가 갑자기 낮아졌는데 생성된 protobuf 코드가 측정 대상에 포함되어 있었다. 설정 파일에서 경로를 정리했다."),
 ("생성 코드와 커버리지",
  "커버리지 하락의 원인은 protobuf 생성 코드를 측정에서 제외한 설정이었고, 설정의 경로를 고쳐서 해결했다."),
 "포함", "제외")
alike("p23c-proto-en-dns", "protocol", "en", "prose",
 ("DNS lookups blocked by the security group",
  "Resolution failed inside the VPC because the security group allowed port 53 over UDP only; large responses fall back to TCP and were dropped."),
 ("Intermittent DNS failures in the VPC",
  "Some lookups timed out: our security group opened port 53 for TCP only, so ordinary queries over UDP never got through."),
 "UDP", "TCP", reword=True)
alike("p23c-mount-en-ro", "mount_access", "en", "code",
 ("Config volume mounted into the container",
  "Mount the config directory with -v /etc/app:/config:ro so a compromised process cannot rewrite it."),
 ("Mounting the app config in Docker",
  "We mount the config as -v /etc/app:/config:rw, so the process can rewrite its own settings at runtime."),
 ":ro", ":rw", reword=True)
alike("p23c-join-en-report", "sql_join", "en", "code",
 ("Customers without orders missing from the report",
  "The monthly report dropped customers with no orders because the query used INNER JOIN orders; customers with zero orders must still be listed."),
 ("Report lost customers that had no orders",
  "We switched the report query to LEFT JOIN orders and customers with zero orders still vanished from the monthly report."),
 "INNER JOIN", "LEFT JOIN")
alike("p23c-eol-en-shell", "line_endings", "en", "prose",
 ("Shell script fails with bad interpreter",
  "'/bin/bash^M: bad interpreter' came from a script checked out with CRLF endings on Windows; .gitattributes now forces *.sh text eol=lf."),
 ("bad interpreter error on a checked-out script",
  "The entrypoint failed with a bad interpreter error after a Windows checkout, so we set *.sh text eol=crlf in .gitattributes."),
 "eol=lf", "eol=crlf")
alike("p23c-pull-en-k8s", "pull_policy", "en", "config",
 ("Pods kept running the old image",
  "With the tag latest, nodes that had the image cached never pulled the new one; set imagePullPolicy: Always on the deployment."),
 ("Stale image on some nodes after redeploy",
  "Some nodes ran the previous latest image after a redeploy. We use imagePullPolicy: IfNotPresent in the deployment spec."),
 "Always", "IfNotPresent")
alike("p23c-merge-en-ff", "merge_mode", "en", "code",
 ("Keep a linear history on main",
  "The bot merges pull requests with git merge --ff-only, so a branch that is behind main fails and must be rebased first."),
 ("Merge bot and history on main",
  "Our merge bot runs git merge --no-ff, so every pull request shows up on main as one merge commit even when it is behind."),
 "--ff-only", "--no-ff")
alike("p23c-neg-ko-retry", "negated_verb", "ko", "prose",
 ("결제 API 재시도 정책",
  "결제 승인 요청이 타임아웃 나면 재시도하지 말고 먼저 주문 상태를 조회해야 한다. 중복 결제가 생길 수 있다."),
 ("결제 타임아웃 때의 처리",
  "승인 요청이 타임아웃으로 끝나면 바로 재시도하고, 그 다음에 주문 상태를 조회한다. 중복 결제를 막기 위해서다."),
 "재시도하지 말고", "재시도하고")
alike("p23c-arch-ko-build", "cpu_arch", "ko", "prose",
 ("M1 맥에서 만든 이미지 문제",
  "M1 맥에서 빌드한 이미지가 서버에서 exec format error로 죽었다. --platform linux/amd64를 붙여서 빌드하니 해결됐다."),
 ("맥에서 빌드한 도커 이미지가 서버에서 안 뜸",
  "서버에서 exec format error가 나서 확인해 보니 아키텍처 문제였고, 빌드할 때 --platform linux/arm64를 지정해서 고쳤다."),
 "linux/amd64", "linux/arm64")

reworded("p23c-neg-en-cache2", "negated_verb", "en", "prose",
 ("Enable the BuildKit cache mount for pip",
  "Docker builds were slow because pip downloaded every wheel each time; enable the cache mount with RUN --mount=type=cache,target=/root/.cache/pip."),
 ("pip wheels downloaded on every Docker build",
  "To stop pip fetching all wheels on each build, enable a BuildKit cache mount: RUN --mount=type=cache,target=/root/.cache/pip."),
 "enable")
reworded("p23c-incl-ko-backup2", "korean_include", "ko", "prose",
 ("백업 용량이 너무 큰 이유",
  "백업이 갑자기 커져서 보니 node_modules 디렉터리를 백업 대상에 포함하고 있었다. rsync 설정을 고쳤다."),
 ("rsync 백업이 커진 문제",
  "rsync 백업 크기가 급증했는데 설정에서 node_modules를 포함하고 있던 게 원인이었다. 설정을 수정했다."),
 "포함")
reworded("p23c-onoff-ko-feature2", "korean_onoff", "ko", "prose",
 ("결제 장애 때 기능 플래그 처리",
  "결제 오류가 급증하면 new_checkout 플래그를 끄면 바로 예전 흐름으로 돌아간다. 배포 없이 복구할 수 있다."),
 ("새 결제 흐름 플래그로 복구하기",
  "결제 실패가 늘어날 때 new_checkout 플래그를 끄면 즉시 이전 결제 흐름으로 되돌아가고, 재배포는 필요 없다."),
 "끄면")

write("pairs3.jsonl")
