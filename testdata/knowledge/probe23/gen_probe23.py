#!/usr/bin/env python3
"""Writes pairs.jsonl: session 23's probe of look-alikes written in two voices (look23).

Unlike gen_lookalike_own*.py, side b of a look-alike is not side a with one
value substituted: each side is the same finding as a second engineer would
write it (other words, other order), and the two differ in one decisive
detail (from -> to). The rewordings (-reworded) are the same finding in two
voices with every detail kept. Kinds: scientific notation, a negative number
in prose, a hexadecimal literal against 0, a dimension product (WxH), rsync's
trailing slash, a plain word after a dotted setting, an IPv4 CIDR prefix, a
duration unit, an ordinal, a boolean, an HTTP method, a signal name, a size
unit, a percentage, an environment's name, a load-balancing choice; English
and Korean. Run: python3 gen_probe23.py (prints OK and rewrites the file).
"""
from probe_pairs import alike, reworded, write
# ---- scientific notation ----
alike("p23-sci-en-rope", "sci", "en", "prose",
 ("Long-context fine-tune only converged with a larger RoPE base",
  "Stretching the model to 32k tokens gave garbage past 8k until rope_theta in config.json was raised to 1e6; after that, long-document perplexity halved."),
 ("RoPE base has to go up before training at 32k context",
  "We kept seeing nonsense output beyond 8k tokens. Setting rope_theta to 1e5 in the model's config.json before the 32k fine-tune fixed it and perplexity on long inputs dropped by about half."),
 "1e6", "1e5")
alike("p23-sci-en-chunk", "sci", "en", "prose",
 ("Bulk insert from pandas runs the worker out of memory",
  "DataFrame.to_sql on a 40 GB frame got the Celery worker OOM-killed. Splitting the frame into slices of 1e5 rows and calling to_sql per slice with method='multi' kept RSS under 2 GB."),
 ("to_sql OOM on huge frames: write in slices",
  "Our Celery job died with OOM when pushing a 40 GB DataFrame through to_sql in one go. Iterating over chunks of 1e6 rows, each with to_sql(method='multi'), held memory below 2 GB."),
 "1e5", "1e6")
alike("p23-sci-ko-lr", "sci", "ko", "prose",
 ("AdamW 학습 중 손실이 NaN이 될 때",
  "첫 에폭부터 loss가 NaN으로 튀었는데 그래디언트 클리핑만으로는 해결되지 않았다. AdamW의 학습률을 1e-4로 낮추자 NaN이 사라지고 학습이 안정됐다."),
 ("손실 NaN 문제는 러닝레이트로 해결",
  "그래디언트 클리핑을 켜 두어도 첫 에폭에 손실이 NaN이 되었다. AdamW learning rate를 1e-5로 내리니 그 뒤로는 NaN 없이 안정적으로 학습됐다."),
 "1e-4", "1e-5")
reworded("p23-sci-en-eps", "sci", "en", "prose",
 ("fp16 training: raise Adam's epsilon",
  "Mixed-precision runs produced inf updates in the first hundred steps because Adam's eps of 1e-8 underflows in fp16. Passing eps=1e-6 to torch.optim.Adam stopped the inf values."),
 ("Adam eps underflows under fp16 autocast",
  "The default epsilon 1e-8 is too small for half precision, so the optimizer step returned inf early in training. Using eps=1e-6 when constructing torch.optim.Adam made the updates finite again."),
 "1e-6")
reworded("p23-sci-ko-rows", "sci", "ko", "prose",
 ("pandas to_sql 메모리 초과는 나눠서 쓰기",
  "40 GB DataFrame을 to_sql로 한 번에 쓰다가 Celery 워커가 OOM으로 죽었다. 1e5 행씩 잘라 to_sql(method='multi')로 쓰니 메모리가 2 GB 아래로 유지됐다."),
 ("to_sql로 큰 DataFrame 쓸 때 OOM 피하기",
  "Celery 워커가 40 GB 프레임을 to_sql 하다 OOM으로 종료됐다. 프레임을 1e5 행 단위로 나누고 method='multi'로 to_sql을 호출하자 메모리 사용량이 2 GB 이하로 머물렀다."),
 "1e5")

# ---- negative numbers in prose ----
alike("p23-neg-en-index", "negative", "en", "prose",
 ("Release notes script picked an old tag",
  "The changelog generator listed last month's release because git tag --sort=version:refname sorts ascending. The newest tag is the element at index -1 of that list, not the first one."),
 ("Changelog showed the wrong version",
  "Our release-notes script printed an outdated tag. The list from git tag --sort=version:refname goes oldest to newest, so take the item at index 1 instead of the first one to get the release we want."),
 "-1", "1")
alike("p23-neg-en-tz", "negative", "en", "prose",
 ("Scheduled report fired at the wrong hour",
  "The weekly report was sent hours early because the service stored the customer's UTC offset as -5 for New York; the cron wrapper adds that offset to the UTC hour before scheduling."),
 ("Weekly report sent at the wrong time",
  "Reports went out early: the cron wrapper adds the stored UTC offset to the hour, and the offset saved for the New York customer was 5."),
 "-5", "5")
alike("p23-neg-ko-nice", "negative", "ko", "prose",
 ("백업 작업이 웹 서버 응답을 느리게 할 때",
  "야간 백업 스크립트가 CPU를 차지해 웹 응답이 느려졌다. 백업을 nice 값 10으로 실행하도록 바꾸자 지연이 사라졌다."),
 ("야간 백업 때문에 웹이 느려지는 문제",
  "새벽마다 웹 서버 응답 지연이 생겼는데 원인은 백업 스크립트였다. 스크립트를 nice 값 -10으로 돌리게 한 뒤로 응답이 정상으로 돌아왔다."),
 "10", "-10")
reworded("p23-neg-en-oom", "negative", "en", "prose",
 ("Keep the OOM killer away from postgres",
  "Under memory pressure the kernel kept killing the postgres postmaster. Writing -1000 to its oom_score_adj from the systemd unit (OOMScoreAdjust) made the OOM killer skip it."),
 ("postgres postmaster killed by the OOM killer",
  "The kernel's OOM killer chose postgres whenever memory ran low. Giving the postmaster an oom_score_adj of -1000 via OOMScoreAdjust in its systemd unit stopped that."),
 "-1000")
reworded("p23-neg-ko-nice", "negative", "ko", "prose",
 ("백업 작업이 웹 서버 응답을 느리게 할 때",
  "야간 백업 스크립트가 CPU를 차지해 웹 응답이 느려졌다. 백업을 nice 값 -10으로 실행하도록 바꾸자 지연이 사라졌다."),
 ("야간 백업 때문에 웹이 느려지는 문제",
  "새벽마다 웹 서버 응답 지연이 생겼는데 원인은 백업 스크립트였다. 스크립트를 nice 값 -10으로 돌리게 한 뒤로 응답이 정상으로 돌아왔다."),
 "-10")

# ---- hexadecimal literal against 0 ----
alike("p23-hex-en-mask", "hex", "en", "prose",
 ("ESP32 never wakes from deep sleep on the button",
  "The board stayed asleep when the button on GPIO 33 was pressed: esp_sleep_enable_ext1_wakeup was called with a mask of 0x200000000, and the pin also needs rtc_gpio_pullup_en."),
 ("Deep sleep wake-up on GPIO 33 does nothing",
  "Pressing the button never woke our ESP32. We passed 0 as the pin mask to esp_sleep_enable_ext1_wakeup and the pin also needs its RTC pull-up enabled with rtc_gpio_pullup_en."),
 "0x200000000", "0")
alike("p23-hex-ko-flag", "hex", "ko", "prose",
 ("SQLite 파일을 file 명령이 알아보게 하기",
  "앱의 DB 파일을 file(1)이 일반 SQLite로만 보여서 PRAGMA application_id에 0x4D505331을 넣었다. 그 뒤로 magic 파일에 등록한 이름으로 인식된다."),
 ("file(1)이 우리 DB를 식별하도록 application_id 지정",
  "magic 파일에 우리 포맷을 등록했는데도 file 명령이 그냥 SQLite라고만 했다. PRAGMA application_id 값을 0으로 설정하자 등록한 이름으로 나온다."),
 "0x4D505331", "0")
reworded("p23-hex-en-mask", "hex", "en", "prose",
 ("ESP32 never wakes from deep sleep on the button",
  "The board stayed asleep when the button on GPIO 33 was pressed: esp_sleep_enable_ext1_wakeup was called with a mask of 0x200000000, and the pin also needs rtc_gpio_pullup_en."),
 ("Deep sleep wake-up on GPIO 33 does nothing",
  "Pressing the button never woke our ESP32. We passed 0x200000000 as the pin mask to esp_sleep_enable_ext1_wakeup and the pin also needs its RTC pull-up enabled with rtc_gpio_pullup_en."),
 "0x200000000")

# ---- dimension products ----
alike("p23-dim-en-gemm", "dimension", "en", "prose",
 ("int8 GEMM falls back to the slow kernel",
  "With bitsandbytes the int8 matmul took the slow path for our 4096x32 projection; cuBLASLt wants both dimensions to be multiples of 32, so padding the weight fixed the speed."),
 ("Slow int8 matmul for one projection layer",
  "One projection, shaped 4096x64, ran through the slow fallback in bitsandbytes. The cuBLASLt int8 path needs both sides to be multiples of 32; after padding the weight it ran at full speed."),
 "4096x32", "4096x64")
alike("p23-dim-en-atlas", "dimension", "en", "prose",
 ("Black sprites on older Mali GPUs",
  "Some Android phones with Mali GPUs render our sprites black because the texture atlas is 4096x4096 and GL_MAX_TEXTURE_SIZE there is 2048; splitting the atlas into tiles fixed it."),
 ("Texture atlas too large for some Android devices",
  "GL_MAX_TEXTURE_SIZE is 2048 on several Mali chips, and our atlas at 8192x4096 exceeds it, so sprites came out black. We now split it into tiles."),
 "4096x4096", "8192x4096")
alike("p23-dim-ko-screen", "dimension", "ko", "prose",
 ("OBS 녹화 화면이 흐릿할 때",
  "OBS에서 출력 해상도를 1920x1080으로 두고 캔버스는 2560x1440으로 둬서 축소가 일어나 글자가 뭉개졌다. 캔버스와 출력을 같게 맞추면 선명해진다."),
 ("OBS 녹화본의 글씨가 번지는 문제",
  "캔버스가 2560x1440인데 출력은 1920x1200이라 OBS가 다운스케일하면서 텍스트가 흐려졌다. 두 해상도를 일치시키니 해결됐다."),
 "1920x1080", "1920x1200")
reworded("p23-dim-en-gemm", "dimension", "en", "prose",
 ("int8 GEMM falls back to the slow kernel",
  "With bitsandbytes the int8 matmul took the slow path for our 4096x32 projection; cuBLASLt wants both dimensions to be multiples of 32, so padding the weight fixed the speed."),
 ("Slow int8 matmul for one projection layer",
  "One projection, shaped 4096x32, ran through the slow fallback in bitsandbytes. The cuBLASLt int8 path needs both sides to be multiples of 32; after padding the weight it ran at full speed."),
 "4096x32")
reworded("p23-dim-ko-screen", "dimension", "ko", "prose",
 ("OBS 녹화 화면이 흐릿할 때",
  "OBS에서 출력 해상도를 1920x1080으로 두고 캔버스는 2560x1440으로 둬서 축소가 일어나 글자가 뭉개졌다. 캔버스와 출력을 같게 맞추면 선명해진다."),
 ("OBS 녹화본의 글씨가 번지는 문제",
  "캔버스가 2560x1440인데 출력은 1920x1080이라 OBS가 다운스케일하면서 텍스트가 흐려졌다. 두 해상도를 일치시키니 해결됐다."),
 "1920x1080")

# ---- rsync's trailing slash ----
alike("p23-rsync-en-nas", "rsync_slash", "en", "code",
 ("Nightly mirror of the photo library to the NAS",
  "Cron runs `rsync -a --delete ~/photos/ /mnt/nas/photos` every night, so the NAS copy matches the laptop and files removed locally disappear there too."),
 ("Keeping the NAS photo folder in sync",
  "Every night a cron entry mirrors the laptop's pictures with `rsync -a --delete ~/photos /mnt/nas/photos`; deletions on the laptop are carried over to the NAS."),
 "~/photos/", "~/photos")
alike("p23-rsync-en-deploy", "rsync_slash", "en", "prose",
 ("Deploying the static build with rsync",
  "The deploy step pushes the site with rsync -az dist/ deploy@web1:/var/www/site and then reloads nginx; running it twice changes nothing."),
 ("Static site deploy over rsync",
  "We reload nginx after copying the built site: rsync -az dist deploy@web1:/var/www/site. A second run is a no-op."),
 "dist/", "dist")
alike("p23-rsync-ko-backup", "rsync_slash", "ko", "code",
 ("홈 디렉터리를 외장 디스크로 백업",
  "매일 `rsync -aH --delete /home/minji/ /media/backup/minji` 로 외장 디스크에 백업한다. 로컬에서 지운 파일은 백업에서도 지워진다."),
 ("외장 디스크 백업 명령",
  "외장 디스크로의 일일 백업은 `rsync -aH --delete /home/minji /media/backup/minji` 한 줄이다. --delete 때문에 원본에서 삭제한 파일은 백업에서도 사라진다."),
 "/home/minji/", "/home/minji")
reworded("p23-rsync-en-nas", "rsync_slash", "en", "code",
 ("Nightly mirror of the photo library to the NAS",
  "Cron runs `rsync -a --delete ~/photos/ /mnt/nas/photos` every night, so the NAS copy matches the laptop and files removed locally disappear there too."),
 ("Keeping the NAS photo folder in sync",
  "Every night a cron entry mirrors the laptop's pictures with `rsync -a --delete ~/photos/ /mnt/nas/photos`; deletions on the laptop are carried over to the NAS."),
 "~/photos/")

# ---- a plain word after a dotted setting ----
alike("p23-dotted-en-ddl", "dotted_word", "en", "config",
 ("Hibernate altered production tables on startup",
  "A column was dropped in production when the service started, because application.properties still had spring.jpa.hibernate.ddl-auto = update from development; set it to validate there."),
 ("Spring Boot schema changed by Hibernate at boot",
  "Hibernate rewrote a production table during startup. The cause was spring.jpa.hibernate.ddl-auto = validate in application.properties copied from the dev profile."),
 "update", "validate")
alike("p23-dotted-en-branch", "dotted_word", "en", "prose",
 ("New repositories start on the wrong branch",
  "Fresh repositories kept starting on master even though the server expects another name. Running git config --global init.defaultBranch main once fixed every later git init."),
 ("git init creates master instead of our branch",
  "Our hosting expects a different default branch, but git init kept creating master. A single git config --global init.defaultBranch trunk made new repositories use it."),
 "main", "trunk")
alike("p23-dotted-ko-shutdown", "dotted_word", "ko", "config",
 ("배포 중 요청이 끊기는 Spring Boot 서비스",
  "롤링 배포 때마다 진행 중이던 요청이 502로 끊겼다. application.yml에 server.shutdown = graceful 을 넣고 종료 대기 시간을 30초로 잡으니 사라졌다."),
 ("롤링 업데이트에서 502가 나던 원인",
  "배포할 때 처리 중인 요청이 502로 끊기는 문제가 있었다. application.yml의 server.shutdown = immediate 설정과 30초 종료 대기 시간으로 해결했다."),
 "graceful", "immediate")
reworded("p23-dotted-en-ddl", "dotted_word", "en", "config",
 ("Hibernate altered production tables on startup",
  "A column was dropped in production when the service started, because application.properties still had spring.jpa.hibernate.ddl-auto = update from development; set it to validate there."),
 ("Spring Boot schema changed by Hibernate at boot",
  "Hibernate rewrote a production table during startup. The cause was spring.jpa.hibernate.ddl-auto = update in application.properties copied from the dev profile; production should use validate."),
 "update")
reworded("p23-dotted-en-branch", "dotted_word", "en", "prose",
 ("New repositories start on the wrong branch",
  "Fresh repositories kept starting on master even though the server expects another name. Running git config --global init.defaultBranch main once fixed every later git init."),
 ("git init creates master instead of our branch",
  "Our hosting expects a different default branch, but git init kept creating master. A single git config --global init.defaultBranch main made new repositories use it."),
 "main")

# ---- IPv4 CIDR prefix ----
alike("p23-cidr-en-sg", "cidr", "en", "prose",
 ("Pods cannot reach RDS from the new node group",
  "Connections from the new EKS node group to the database timed out; its security group only allowed 10.20.0.0/16 on port 5432 while the nodes got addresses outside it."),
 ("New EKS nodes time out talking to Postgres on RDS",
  "The RDS security group admits port 5432 from 10.20.0.0/24 only, and the fresh node group's addresses fall outside that range, so pods on it could not connect."),
 "10.20.0.0/16", "10.20.0.0/24")
alike("p23-cidr-ko-docker", "cidr", "ko", "prose",
 ("사내 VPN과 Docker 브리지 대역 충돌",
  "VPN에 붙으면 컨테이너에서 사내 서버로 가는 통신이 끊겼다. daemon.json의 bip를 172.30.0.1/16로 바꿔 VPN 대역과 겹치지 않게 하니 해결됐다."),
 ("Docker 기본 대역이 VPN과 겹칠 때",
  "컨테이너에서 사내 서버 접속이 VPN 연결 시에만 실패했다. Docker 브리지 주소를 daemon.json의 bip 172.30.0.1/24로 옮겨 겹침을 없앴다."),
 "172.30.0.1/16", "172.30.0.1/24")
reworded("p23-cidr-en-sg", "cidr", "en", "prose",
 ("Pods cannot reach RDS from the new node group",
  "Connections from the new EKS node group to the database timed out; its security group only allowed 10.20.0.0/16 on port 5432 while the nodes got addresses outside it."),
 ("New EKS nodes time out talking to Postgres on RDS",
  "The RDS security group admits port 5432 from 10.20.0.0/16 only, and the fresh node group's addresses fall outside that range, so pods on it could not connect."),
 "10.20.0.0/16")

# ---- durations ----
alike("p23-dur-en-probe", "duration", "en", "prose",
 ("Pods restarted during slow JVM startup",
  "The liveness probe killed the Spring service before it finished booting. Adding a startupProbe that allows up to 30s before liveness takes over stopped the restart loop."),
 ("Restart loop on a slow-booting Java service",
  "Kubernetes kept killing our pod while the JVM was still starting. A startupProbe giving it 30m before the liveness probe applies ended the loop."),
 "30s", "30m")
alike("p23-dur-ko-token", "duration", "ko", "prose",
 ("API 토큰이 너무 빨리 만료될 때",
  "모바일 앱 사용자가 자주 로그아웃됐다. 액세스 토큰 수명이 15m로 잡혀 있었고 리프레시 로직이 없었다."),
 ("모바일 앱에서 로그인이 자주 풀리는 원인",
  "리프레시 처리 없이 액세스 토큰 만료 시간을 15s로 설정해 둔 탓에 사용자가 계속 로그아웃됐다."),
 "15m", "15s")
reworded("p23-dur-en-probe", "duration", "en", "prose",
 ("Pods restarted during slow JVM startup",
  "The liveness probe killed the Spring service before it finished booting. Adding a startupProbe that allows up to 30s before liveness takes over stopped the restart loop."),
 ("Restart loop on a slow-booting Java service",
  "Kubernetes kept killing our pod while the JVM was still starting. A startupProbe giving it 30s before the liveness probe applies ended the loop."),
 "30s")

# ---- ordinals ----
alike("p23-ord-en-arg", "ordinal", "en", "prose",
 ("awk script read the wrong column",
  "The report summed the wrong values because the CSV's amount is its third column; awk -F, '{s+=$3}' gives the right total."),
 ("Wrong total from the awk one-liner",
  "Summing amounts with awk gave nonsense: in this CSV the amount sits in the second column, so use awk -F, '{s+=$3}' to total it."),
 "third", "second")
alike("p23-ord-ko-replica", "ordinal", "ko", "prose",
 ("StatefulSet 업그레이드가 중간에 멈출 때",
  "롤링 업데이트가 두 번째 파드에서 멈췄다. 그 파드의 readinessProbe가 이전 리더 주소를 보고 있었기 때문이다."),
 ("StatefulSet 롤링 업데이트 정지 원인",
  "세 번째 파드에서 업데이트가 진행되지 않았는데, 해당 파드의 readinessProbe가 옛 리더 주소를 확인하고 있었다."),
 "두 번째", "세 번째")

# ---- booleans ----
alike("p23-bool-en-autocrlf", "boolean", "en", "prose",
 ("Shell scripts broken after checkout on Windows",
  "Bash scripts cloned on Windows failed with $'\\r': command not found. The developers had core.autocrlf set to true; a .gitattributes rule *.sh text eol=lf fixes it for everyone."),
 ("$'\\r': command not found in scripts from a Windows clone",
  "Scripts checked out on Windows machines failed in bash with $'\\r': command not found because core.autocrlf was false there. Adding *.sh text eol=lf to .gitattributes solves it for all clones."),
 "true", "false")
alike("p23-bool-ko-trust", "boolean", "ko", "prose",
 ("리버스 프록시 뒤에서 클라이언트 IP가 모두 같게 찍힘",
  "Express 앱 로그의 IP가 전부 nginx 주소였다. app.set('trust proxy', true) 로 바꾸고 나서 X-Forwarded-For의 실제 주소가 기록된다."),
 ("nginx 뒤 Express에서 req.ip가 프록시 주소일 때",
  "로그에 클라이언트 IP 대신 nginx 주소만 남았다. trust proxy 설정을 false로 두었더니 X-Forwarded-For의 실제 IP가 찍히기 시작했다."),
 "true", "false")
reworded("p23-bool-en-autocrlf", "boolean", "en", "prose",
 ("Shell scripts broken after checkout on Windows",
  "Bash scripts cloned on Windows failed with $'\\r': command not found. The developers had core.autocrlf set to true; a .gitattributes rule *.sh text eol=lf fixes it for everyone."),
 ("$'\\r': command not found in scripts from a Windows clone",
  "Scripts checked out on Windows machines failed in bash with $'\\r': command not found because core.autocrlf was true there. Adding *.sh text eol=lf to .gitattributes solves it for all clones."),
 "true")

# ---- HTTP methods ----
alike("p23-http-en-patch", "http_method", "en", "prose",
 ("Updating one field wiped the rest of the record",
  "Clients that sent only the changed field lost every other attribute, because the endpoint handles PUT as a full replacement; partial updates must go through PATCH."),
 ("Partial update cleared the other fields",
  "Sending just the edited field erased the rest of the resource: our API treats PATCH as replacing the whole document, so partial changes must go through PATCH."),
 "PUT", "PATCH")
alike("p23-http-ko-cors", "http_method", "ko", "prose",
 ("CORS 프리플라이트에서 405가 나는 API",
  "브라우저에서 호출하면 405 Method Not Allowed가 났다. 라우터가 OPTIONS 요청을 처리하지 않아 프리플라이트가 실패한 것이었다."),
 ("브라우저 호출만 405로 실패하는 원인",
  "라우터에 HEAD 핸들러가 없어서 브라우저의 프리플라이트 요청이 405 Method Not Allowed로 거절됐다."),
 "OPTIONS", "HEAD")

# ---- signals ----
alike("p23-sig-en-docker", "signal", "en", "prose",
 ("Container takes ten seconds to stop",
  "docker stop always waited the full ten seconds: the app ran under sh -c, so SIGTERM never reached node. Using exec form in the Dockerfile's CMD lets node see it and exit at once."),
 ("docker stop hangs for 10 s on our node image",
  "Because CMD used shell form, node ran as a child of sh and never got SIGKILL; switching CMD to exec form made shutdown immediate instead of waiting ten seconds."),
 "SIGTERM", "SIGKILL")
alike("p23-sig-ko-reload", "signal", "ko", "prose",
 ("nginx 설정을 끊김 없이 다시 읽기",
  "설정을 바꿀 때마다 재시작하면 연결이 끊긴다. 마스터 프로세스에 SIGHUP을 보내면 워커를 새로 띄우면서 기존 연결은 유지된다."),
 ("nginx 재시작 없이 설정 반영",
  "nginx 마스터에 SIGUSR1 신호를 주면 기존 연결을 끊지 않고 새 워커로 설정을 다시 읽는다. 재시작은 연결을 끊으니 피하자."),
 "SIGHUP", "SIGUSR1")
reworded("p23-sig-en-docker", "signal", "en", "prose",
 ("Container takes ten seconds to stop",
  "docker stop always waited the full ten seconds: the app ran under sh -c, so SIGTERM never reached node. Using exec form in the Dockerfile's CMD lets node see it and exit at once."),
 ("docker stop hangs for 10 s on our node image",
  "Because CMD used shell form, node ran as a child of sh and never got SIGTERM; switching CMD to exec form made shutdown immediate instead of waiting ten seconds."),
 "SIGTERM")

# ---- size units, percentages, names ----
alike("p23-unit-en-shm", "size_unit", "en", "prose",
 ("PyTorch DataLoader workers crash in Docker",
  "With num_workers above zero the DataLoader died with a bus error inside the container. Docker gives /dev/shm 64MB by default; running with --shm-size=8g fixed it."),
 ("Bus error from DataLoader workers in a container",
  "The default /dev/shm in Docker is 64GB, and DataLoader workers crashed with a bus error until we started the container with --shm-size=8g."),
 "64MB", "64GB")
alike("p23-pct-en-hpa", "percent", "en", "prose",
 ("HPA never scales the API up",
  "The HorizontalPodAutoscaler stayed at two replicas under load: its CPU target was 500% of the request, which the pods could never reach with a 1-core limit."),
 ("Autoscaler stuck at two replicas",
  "Under load the HPA kept two pods because the target CPU utilisation was set to 50% of the request, and with a limit of one core the pods never got there."),
 "500%", "50%")
alike("p23-env-en-stage", "environment", "en", "prose",
 ("Terraform applied to the wrong workspace",
  "A plan meant for testing destroyed resources in staging because the CI job ran terraform workspace select staging before apply and nobody checked the plan."),
 ("CI's terraform apply hit the wrong environment",
  "The pipeline selected the production workspace before terraform apply, and resources there were destroyed by a plan meant for testing that nobody reviewed."),
 "staging", "production")
alike("p23-lb-ko-upstream", "choice", "ko", "prose",
 ("업스트림 하나에만 부하가 몰릴 때",
  "오래 걸리는 요청이 많은 서비스에서 nginx upstream 기본 라운드로빈 대신 least_conn을 쓰자 서버 간 부하가 고르게 나뉘었다."),
 ("nginx 업스트림 부하 불균형 해결",
  "긴 요청이 섞인 API에서 특정 서버에 부하가 쏠렸는데, upstream 블록에 ip_hash를 지정하고 나서 고르게 분산됐다."),
 "least_conn", "ip_hash")

# ---- rewordings without a probed kind in them ----
reworded("p23-http-en-put", "http_method", "en", "prose",
 ("Updating one field wiped the rest of the record",
  "Clients that sent only the changed field lost every other attribute, because the endpoint handles PUT as a full replacement; partial updates must go through PATCH."),
 ("Partial update cleared the other fields",
  "Sending just the edited field erased the rest of the resource: our API treats PUT as replacing the whole document, so partial changes must go through PATCH."),
 "PUT")
reworded("p23-pct-en-hpa", "percent", "en", "prose",
 ("HPA never scales the API up",
  "The HorizontalPodAutoscaler stayed at two replicas under load: its CPU target was 500% of the request, which the pods could never reach with a 1-core limit."),
 ("Autoscaler stuck at two replicas",
  "Under load the HPA kept two pods because the target CPU utilisation was set to 500% of the request, and with a limit of one core the pods never got there."),
 "500%")
reworded("p23-neg-en-tz", "negative", "en", "prose",
 ("Scheduled report fired at the wrong hour",
  "The weekly report was sent hours early because the service stored the customer's UTC offset as -5 for New York; the cron wrapper adds that offset to the UTC hour before scheduling."),
 ("Weekly report sent at the wrong time",
  "Reports went out early: the cron wrapper adds the stored UTC offset to the hour, and the offset saved for the New York customer was -5."),
 "-5")
reworded("p23-cidr-ko-docker", "cidr", "ko", "prose",
 ("사내 VPN과 Docker 브리지 대역 충돌",
  "VPN에 붙으면 컨테이너에서 사내 서버로 가는 통신이 끊겼다. daemon.json의 bip를 172.30.0.1/16로 바꿔 VPN 대역과 겹치지 않게 하니 해결됐다."),
 ("Docker 기본 대역이 VPN과 겹칠 때",
  "컨테이너에서 사내 서버 접속이 VPN 연결 시에만 실패했다. Docker 브리지 주소를 daemon.json의 bip 172.30.0.1/16로 옮겨 겹침을 없앴다."),
 "172.30.0.1/16")
reworded("p23-unit-en-shm", "size_unit", "en", "prose",
 ("PyTorch DataLoader workers crash in Docker",
  "With num_workers above zero the DataLoader died with a bus error inside the container. Docker gives /dev/shm 64MB by default; running with --shm-size=8g fixed it."),
 ("Bus error from DataLoader workers in a container",
  "The default /dev/shm in Docker is 64MB, and DataLoader workers crashed with a bus error until we started the container with --shm-size=8g."),
 "64MB")

reworded("p23-dur-ko-token", "duration", "ko", "prose",
 ("API 토큰이 너무 빨리 만료될 때",
  "모바일 앱 사용자가 자주 로그아웃됐다. 액세스 토큰 수명이 15m로 잡혀 있었고 리프레시 로직이 없었다."),
 ("모바일 앱에서 로그인이 자주 풀리는 원인",
  "리프레시 처리 없이 액세스 토큰 만료 시간을 15m로 설정해 둔 탓에 사용자가 계속 로그아웃됐다."),
 "15m")
reworded("p23-sig-ko-reload", "signal", "ko", "prose",
 ("nginx 설정을 끊김 없이 다시 읽기",
  "설정을 바꿀 때마다 재시작하면 연결이 끊긴다. 마스터 프로세스에 SIGHUP을 보내면 워커를 새로 띄우면서 기존 연결은 유지된다."),
 ("nginx 재시작 없이 설정 반영",
  "nginx 마스터에 SIGHUP 신호를 주면 기존 연결을 끊지 않고 새 워커로 설정을 다시 읽는다. 재시작은 연결을 끊으니 피하자."),
 "SIGHUP")

write("pairs.jsonl")
