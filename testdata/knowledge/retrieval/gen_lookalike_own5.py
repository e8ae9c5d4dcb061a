#!/usr/bin/env python3
"""Writes pairs-lookalike-own5.jsonl: session 19's own look-alike pairs (look19).

Written from general engineering knowledge before reading the merge rules
closely, over tools no part of testdata/knowledge covers (coturn, Tor, gpsd,
ImageMagick, pandoc, rclone, Syncthing, fail2ban, Mastodon, CUDA drivers,
GnuPG, OBS, chrony, LibreOffice headless, Vagrant, Radicale, Icecast,
Graphviz), one category per kind of decisive detail: a port, a flag, a config
key, a version, an opposite, an OS release, a path, a unit, a subcommand, a
Korean verb's polarity, a comparison word, an HTTP method, an HTTP status, an
environment variable, a config section, a quoted value, a case-sensitive
name, a singular/plural name, a distribution, a file extension, a number in
words, a default against an explicit value. A look-alike is the text with
exactly one string replaced (every occurrence, at word edges); rw_alike adds
a second look-alike: the rewording control with the same string replaced (a
reworded finding with one detail changed). Run: python3 gen_lookalike_own5.py
(prints OK and rewrites the file).
"""
import json, os, re, sys

ITEMS = []
def item(iid, cat, lang, form, title, content, old, new, rt=None, rc=None, rw_alike=False):
    ITEMS.append((iid, cat, lang, form, title, content, old, new, rt, rc, rw_alike))

# ---- port ----
item("b5-port-en-coturn", "port", "en", "prose",
 "WebRTC calls fail behind corporate firewalls without a TURN relay on TLS",
 "Video calls between two office networks never connected, although they worked from home. Both firewalls dropped UDP to anything but DNS, so ICE found no candidate pair. Running coturn with a TLS listener on port 5349 and putting turns: URLs for it in the client's iceServers let the calls relay through TCP; keep the realm and the shared secret the same on the signalling server.",
 "5349", "3478",
 "No ICE pair between two office networks until coturn listened on TLS",
 "Calls between the two offices stalled at ICE because both firewalls drop UDP. A coturn listener on TLS port 5349, advertised to clients as turns: URLs in iceServers, lets media relay over TCP. The signalling server must share coturn's realm and secret.")
item("b5-port-en-tor", "port", "en", "config",
 "Tor SOCKS proxy refuses connections from other hosts on the LAN",
 "Pointing a laptop's browser at the Tor daemon on the home server gave connection refused. The torrc line\n\n```\nSocksPort 127.0.0.1:9050\n```\n\nbinds the proxy to loopback only. Binding it to the server's LAN address and adding a SocksPolicy accept line for the LAN range let other hosts use it; keep the policy narrow, since an open SOCKS port is an open proxy.",
 "9050", "9150", rw_alike=True,
 rt="torrc's SocksPort on loopback keeps LAN clients out",
 rc="The LAN laptop got connection refused from the home server's Tor because torrc says SocksPort 127.0.0.1:9050, which listens on loopback only. Bind SocksPort to the LAN address and add a SocksPolicy accept for the LAN range; a broad policy would make it an open proxy.")
item("b5-port-ko-gpsd", "port", "ko", "prose",
 "다른 장비에서 gpsd 에 접속하면 위치가 오지 않음",
 "라즈베리 파이에 붙인 GPS 수신기는 로컬 cgps 에서는 잘 보였지만, 같은 네트워크의 다른 장비에서 2947 번 포트로 접속하면 연결 자체가 거부됐다. gpsd 가 기본으로 루프백에만 바인딩하기 때문이다. systemd 의 gpsd.socket 에서 ListenStream 을 0.0.0.0:2947 로 바꾸고 gpsd 를 -G 옵션으로 띄우자 원격 접속이 됐다.",
 "2947", "2948",
 "gpsd 원격 접속은 소켓 유닛과 -G 옵션이 필요",
 "파이에서는 cgps 로 위치가 보이는데 다른 장비가 2947 포트로 붙으면 거부됐다. gpsd 는 기본값으로 루프백에만 붙는다. gpsd.socket 의 ListenStream 을 0.0.0.0:2947 로 고치고 -G 로 실행하면 원격에서도 받을 수 있다.")

# ---- flag ----
item("b5-flag-en-magick", "flag", "en", "code",
 "ImageMagick thumbnails keep camera rotation wrong",
 "Thumbnails made from phone photos came out sideways although the originals displayed upright. The photos are stored unrotated with an EXIF Orientation tag, which the resize ignored. Adding -auto-orient before the resize fixed them:\n\n```\nmagick input.jpg -auto-orient -resize 320x320 thumb.jpg\n```\n\nStripping metadata with -strip afterwards is safe, since the pixels are rotated by then.",
 "-auto-orient", "-orient",
 "Sideways thumbnails from EXIF-rotated phone photos",
 "Phone photos keep their pixels unrotated and carry an EXIF Orientation tag, so ImageMagick resized them sideways. Put -auto-orient ahead of -resize (magick input.jpg -auto-orient -resize 320x320 thumb.jpg); -strip after that no longer loses the rotation.")
item("b5-flag-en-pandoc", "flag", "en", "prose",
 "Pandoc PDF output loses the table of contents",
 "Converting the handbook with pandoc to PDF gave a document without a table of contents, though the headings were all there. A table of contents is only written when asked for with --toc; --toc-depth alone sets how deep it goes and does nothing without it. Passing --toc together with --toc-depth=2 produced the contents page.",
 "--toc", "--number-sections", rw_alike=True,
 rt="--toc-depth does nothing unless pandoc is given --toc",
 rc="The handbook PDF from pandoc had every heading but no contents page: pandoc writes one only with --toc, and --toc-depth by itself just sets the depth of a table that is never made. Use --toc with --toc-depth=2.")
item("b5-flag-ko-rsync", "flag", "ko", "prose",
 "rclone sync 가 원격의 파일을 지워 버림",
 "백업 스크립트를 rclone copy 에서 rclone sync 로 바꾼 뒤 원격 버킷에만 있던 오래된 파일이 지워졌다. sync 는 대상을 원본과 똑같이 맞추므로 원본에 없는 파일을 삭제한다. 처음 돌릴 때는 반드시 --dry-run 을 붙여 지워질 목록을 확인하고, 삭제를 막으려면 --backup-dir 로 옮겨 두게 해야 한다.",
 "--dry-run", "--checksum",
 "rclone sync 는 원본에 없는 원격 파일을 지운다",
 "copy 를 sync 로 바꿨더니 버킷에만 있던 예전 파일이 사라졌다. rclone sync 는 대상을 원본과 같게 만들어서 원본에 없는 것을 삭제한다. 첫 실행은 --dry-run 으로 삭제 목록부터 보고, 지우는 대신 보관하려면 --backup-dir 을 쓴다.")

# ---- config key ----
item("b5-key-en-syncthing", "config_key", "en", "config",
 "Syncthing keeps rescanning a large photo folder every minute",
 "CPU on the NAS stayed high because Syncthing rescanned a 400 GB photo folder every minute. The folder had\n\n```xml\n<folder id=\"photos\" rescanIntervalS=\"60\" fsWatcherEnabled=\"false\">\n```\n\nso the full scan was the only way it noticed changes. Turning the filesystem watcher back on and raising rescanIntervalS to an hour kept changes quick and the NAS idle.",
 "rescanIntervalS", "fsWatcherDelayS",
 "Full rescans every minute because Syncthing's watcher was off",
 "The NAS CPU was pegged: the photos folder (400 GB) had fsWatcherEnabled=\"false\" and rescanIntervalS=\"60\", so Syncthing found changes only by full scans each minute. Enable the watcher and set rescanIntervalS to 3600.")
item("b5-key-en-fail2ban", "config_key", "en", "config",
 "fail2ban bans a client again right after the ban ends",
 "Repeat offenders were unbanned after ten minutes and came straight back. In jail.local the sshd jail had\n\n```ini\nbantime = 10m\nfindtime = 10m\nmaxretry = 5\n```\n\nRaising bantime alone made every first-time typo costly; enabling bantime.increment instead lets the ban grow for clients that are banned again while first offenders still wait only ten minutes.",
 "bantime.increment", "bantime.rndtime")
item("b5-key-ko-mastodon", "config_key", "ko", "config",
 "마스토돈 첨부 이미지가 로컬 디스크를 가득 채움",
 "인스턴스를 1년 운영하자 public/system 아래 원격 미디어 캐시가 디스크를 다 채웠다. .env.production 에\n\n```\nS3_ENABLED=false\n```\n\n로 두어 원격 서버의 첨부까지 모두 로컬에 저장했기 때문이다. 주기적으로 tootctl media remove --days 7 을 돌려 캐시를 비우고, 오브젝트 스토리지로 옮기자 디스크가 안정됐다.",
 "S3_ENABLED", "S3_READ_ONLY",
 "원격 미디어 캐시가 로컬 디스크를 채우는 문제",
 "S3_ENABLED=false 로 운영한 마스토돈 인스턴스는 다른 서버의 첨부까지 public/system 에 쌓아서 1년 만에 디스크가 찼다. tootctl media remove --days 7 을 주기적으로 돌리고 오브젝트 스토리지로 옮기면 된다.")

# ---- version ----
item("b5-ver-en-cuda", "version", "en", "prose",
 "CUDA 12 wheels fail with an old NVIDIA driver",
 "After upgrading PyTorch, every job failed at start with a complaint that the NVIDIA driver is too old. The new wheels are built against CUDA 12.1, which needs a driver of at least 525.60 on Linux, and the cluster nodes still ran 470. Upgrading the node driver fixed it; pinning the older CUDA 11.8 wheels is the fallback where the driver cannot move.",
 "525.60", "515.43",
 "Driver too old for PyTorch's CUDA 12.1 wheels",
 "The upgraded PyTorch wheels target CUDA 12.1 and refused to start on nodes with driver 470, since Linux needs at least 525.60 for that. Upgrade the driver, or stay on the CUDA 11.8 wheels where you cannot.")
item("b5-ver-en-gpg", "version", "en", "prose",
 "Old GnuPG cannot import an ed25519 key",
 "A release signing key made on a laptop could not be imported on the build server, which said the algorithm was unknown. The key is ed25519, which GnuPG supports from 2.1 on, and the build server's image still shipped gpg 1.4. Installing gnupg2 and calling gpg2 explicitly in the signing step let the key import and verify.",
 "2.1", "2.2", rw_alike=True,
 rt="ed25519 keys need GnuPG 2.1 or later",
 rc="The build server refused to import the laptop's ed25519 release key with an unknown-algorithm error: its image had gpg 1.4, and ed25519 arrived in GnuPG 2.1. Install gnupg2 and call gpg2 in the signing step.")
item("b5-ver-ko-obs", "version", "ko", "prose",
 "OBS 에서 WebSocket 플러그인 연결이 거부됨",
 "스트림 제어 스크립트가 OBS 에 붙지 못하고 인증 오류를 냈다. OBS 28 부터 obs-websocket 5.x 가 내장되면서 프로토콜이 바뀌었고, 스크립트는 4.x 프로토콜용 라이브러리를 쓰고 있었다. 라이브러리를 5.x 용으로 바꾸고 포트를 4455 로 맞추자 연결됐다.",
 "28", "27",
 "OBS 28 이후로는 obs-websocket 5 프로토콜을 써야 한다",
 "제어 스크립트가 OBS 에 인증 오류로 붙지 못했다. OBS 28 부터 obs-websocket 5.x 가 기본으로 들어가 프로토콜이 달라졌는데 스크립트의 라이브러리는 4.x 용이었다. 5.x 라이브러리와 4455 포트로 바꾸면 된다.")

# ---- enable/disable, increase/decrease ----
item("b5-opp-en-chrony", "opposite", "en", "config",
 "Clock jumps on VMs after a host suspend upset the database",
 "After the hypervisor hosts were suspended overnight, guest clocks were minutes behind, and chrony slewed them back so slowly that certificates and the database's replication complained for hours. Enabling stepping at any time with\n\n```\nmakestep 1 -1\n```\n\nin chrony.conf lets chrony step the clock when the offset exceeds one second instead of only in its first updates.",
 "Enabling", "Disabling",
 "chrony only steps the clock at start unless makestep allows it always",
 "Guests were minutes off after the hosts' overnight suspend and chrony's slow slew left replication and TLS unhappy for hours. Enabling stepping at any time (makestep 1 -1 in chrony.conf) lets it step whenever the offset passes a second, not only in the first updates.")
item("b5-opp-en-libre", "opposite", "en", "prose",
 "Headless LibreOffice conversions hang when two run at once",
 "The document service converted uploads to PDF with soffice --headless --convert-to pdf, and whenever two conversions started together the second hung forever. Both used the same user profile, which LibreOffice locks. Giving each conversion its own profile with -env:UserInstallation=file:///tmp/lo-$$ increased the throughput, since conversions no longer waited on one another.",
 "increased", "decreased")
item("b5-opp-ko-tor", "opposite", "ko", "prose",
 "Tor 릴레이의 트래픽 한도를 넘겨 호스팅 요금이 늘어남",
 "월 전송량이 정해진 VPS 에 Tor 릴레이를 돌렸더니 보름 만에 한도를 넘겼다. torrc 에서 AccountingMax 와 AccountingStart 를 설정하면 기간 동안 정한 양만 쓰고 휴면에 들어간다. RelayBandwidthRate 를 낮추면 순간 대역폭은 줄지만 총량은 막지 못하므로 두 설정을 함께 활성화하는 것이 좋다.",
 "활성화하는", "비활성화하는",
 "VPS 전송량 한도 안에서 Tor 릴레이를 돌리는 법",
 "전송량 제한이 있는 VPS 의 Tor 릴레이가 보름 만에 한도를 넘었다. AccountingMax 와 AccountingStart 로 기간당 총량을 정하면 다 쓴 뒤 휴면한다. RelayBandwidthRate 는 순간 속도만 줄이니 둘을 함께 활성화하는 것이 좋다.")
item("b5-opp-en-vagrant", "opposite", "en", "prose",
 "Vagrant shared folder is too slow for a dependency install",
 "Installing the frontend dependencies inside the Vagrant box took twenty minutes on the default VirtualBox shared folder. Switching the synced folder to NFS with nfs_udp disabled and mounting node_modules from a path inside the guest cut it to two minutes, because the many small writes no longer cross the shared folder.",
 "disabled", "enabled")
item("b5-opp-ko-imagick", "opposite", "ko", "prose",
 "ImageMagick 변환이 큰 PDF 에서 메모리 한도로 실패",
 "스캔한 200 쪽짜리 PDF 를 PNG 로 바꾸자 cache resources exhausted 오류가 났다. 배포판의 policy.xml 이 memory 와 disk 자원을 작게 제한하고 있었다. policy.xml 의 disk 한도를 늘리고 -density 를 필요한 만큼만 주자 변환이 끝까지 됐다.",
 "늘리고", "줄이고")
# ---- OS release ----
item("b5-os-en-gpsd", "os_release", "en", "prose",
 "USB GPS receiver not seen by gpsd after an OS upgrade",
 "After upgrading the tracking box to Ubuntu 24.04, gpsd no longer saw the USB receiver although it showed up as /dev/ttyACM0. The release's ModemManager probes new serial devices and held the port during gpsd's start. Masking ModemManager, or adding a udev rule that sets ID_MM_DEVICE_IGNORE for the receiver's vendor id, let gpsd open it again.",
 "24.04", "22.04",
 "ModemManager grabs the GPS serial port on Ubuntu 24.04",
 "On Ubuntu 24.04 the receiver appeared as /dev/ttyACM0 but gpsd could not open it: ModemManager probes fresh serial devices and held the port. Mask ModemManager or tag the receiver's vendor id with ID_MM_DEVICE_IGNORE in a udev rule.")
item("b5-os-en-obs", "os_release", "en", "prose",
 "Screen capture shows a black window in OBS",
 "On macOS 13 the display capture source in OBS stayed black after an update. The new release revoked screen recording permission for the rebuilt app, since its signature changed. Removing OBS from Screen Recording in System Settings, adding it again and restarting OBS brought the capture back; the newer ScreenCaptureKit source is the one to use from then on.",
 "macOS 13", "macOS 12", rw_alike=True,
 rt="Black display capture after an OBS update on macOS 13",
 rc="An OBS update left display capture black on macOS 13: the rebuilt app has a new signature, so the system dropped its screen recording permission. Take OBS out of Screen Recording in System Settings, add it back, restart, and switch to the ScreenCaptureKit source.")
item("b5-os-ko-cuda", "os_release", "ko", "prose",
 "업그레이드 후 nvidia 커널 모듈이 올라오지 않음",
 "워크스테이션을 Debian 12 로 올린 뒤 nvidia-smi 가 드라이버와 통신할 수 없다고 했다. 새 커널에 맞는 모듈이 빌드되지 않았는데, 커널 헤더 패키지가 빠져 있어서 DKMS 빌드가 조용히 실패했기 때문이다. linux-headers-amd64 를 설치하고 dkms autoinstall 을 돌린 뒤 재부팅하자 GPU 가 잡혔다.",
 "Debian 12", "Debian 11",
 "Debian 12 업그레이드 후 DKMS 가 nvidia 모듈을 못 만듦",
 "Debian 12 로 올리고 나니 nvidia-smi 가 드라이버와 통신하지 못했다. 헤더 패키지가 없어 새 커널용 DKMS 빌드가 소리 없이 실패한 것이다. linux-headers-amd64 를 깔고 dkms autoinstall 후 재부팅하면 된다.")

# ---- file path ----
item("b5-path-en-radicale", "path", "en", "config",
 "Radicale loses calendars after a container rebuild",
 "Every rebuild of the Radicale container started with no calendars. The config set\n\n```ini\n[storage]\nfilesystem_folder = /var/lib/radicale/collections\n```\n\nbut the compose file mounted the volume at /data, so the collections lived in the container's writable layer. Mounting the volume at /var/lib/radicale/collections kept them across rebuilds.",
 "/var/lib/radicale/collections", "/var/lib/radicale/collection",
 "Radicale's collections lived outside the mounted volume",
 "Radicale came back empty after each rebuild because filesystem_folder was /var/lib/radicale/collections while the compose file mounted the volume at /data; the data sat in the writable layer. Mount the volume at /var/lib/radicale/collections.")
item("b5-path-en-gpg", "path", "en", "prose",
 "gpg-agent in a CI container cannot ask for a passphrase",
 "Signing in the CI container failed with Inappropriate ioctl for device. gpg-agent tried to open a pinentry dialog on a terminal that does not exist. Writing allow-loopback-pinentry to ~/.gnupg/gpg-agent.conf and calling gpg with --pinentry-mode loopback and --passphrase-fd 0 let the job pass the passphrase from its secret store.",
 "~/.gnupg/gpg-agent.conf", "~/.gnupg/gpg.conf")
item("b5-path-ko-fail2ban", "path", "ko", "prose",
 "fail2ban 이 sshd 실패를 하나도 잡지 못함",
 "서버를 새 배포판으로 옮긴 뒤 무차별 대입 시도가 계속되는데도 fail2ban 은 아무도 차단하지 않았다. 새 시스템은 sshd 로그를 /var/log/auth.log 에 쓰지 않고 저널에만 남겼다. jail.local 의 sshd 항목에 backend = systemd 를 주자 실패가 다시 잡혔다.",
 "/var/log/auth.log", "/var/log/secure",
 "저널에만 남는 sshd 로그는 backend = systemd 로 읽어야 한다",
 "새 배포판에서는 sshd 가 /var/log/auth.log 대신 저널에만 기록해서 fail2ban 이 시도를 하나도 세지 못했다. jail.local 의 sshd 에 backend = systemd 를 넣으면 다시 차단된다.")

# ---- unit ----
item("b5-unit-en-icecast", "unit", "en", "config",
 "Icecast drops listeners on a slow source",
 "Listeners were cut off whenever the studio's uplink stalled for a moment. icecast.xml had\n\n```xml\n<source-timeout>10</source-timeout>\n```\n\nwhich Icecast reads in seconds, and the encoder's reconnect took longer than that. Raising it to 30 s and giving the mount a fallback-mount with a loop file kept listeners on through short stalls.",
 "30 s", "30 ms",
 "Icecast source-timeout shorter than the encoder's reconnect",
 "Short uplink stalls ended every listener's stream: icecast.xml had source-timeout 10 (seconds), less than the encoder needs to reconnect. Set it to 30 s and add a fallback-mount with a loop file.")
item("b5-unit-en-syncthing", "unit", "en", "prose",
 "Syncthing refuses to sync when the disk is nearly full",
 "Syncthing stopped pulling to the laptop with a folder error about insufficient space although a few gigabytes were free. Each folder keeps a minimum free disk space, 1 % by default, and the home volume's free space was below it once the temporary files were counted. Setting minDiskFree to 500 MiB on the folder let it continue without turning the check off.",
 "500 MiB", "500 GiB", rw_alike=True,
 rt="minDiskFree stops Syncthing pulls on a nearly full laptop",
 rc="Pulls to the laptop stopped with an insufficient-space folder error while gigabytes were still free, because Syncthing's per-folder minDiskFree (1 % by default) counted the temporary files too. Give the folder a minDiskFree of 500 MiB rather than disabling the check.")
item("b5-unit-ko-chrony", "unit", "ko", "prose",
 "chrony 가 GPS PPS 를 기준으로 잡지 않음",
 "GPS 의 PPS 신호를 refclock 으로 넣었는데 chronyc sources 에서 계속 선택되지 않았다. NMEA 문장과 PPS 사이의 지연이 맞지 않아서였다. NMEA refclock 에 offset 0.2 와 delay 0.1 을 주고, PPS refclock 에 lock NMEA 를 걸어 지연 차이가 200 ms 안쪽으로 들어오자 PPS 가 선택됐다.",
 "200 ms", "200 us",
 "NMEA 와 PPS 지연을 맞춰야 chrony 가 PPS 를 고른다",
 "chronyc sources 에서 PPS refclock 이 선택되지 않은 것은 NMEA 와 PPS 의 지연이 어긋났기 때문이다. NMEA 에 offset 0.2, delay 0.1 을 주고 PPS 에 lock NMEA 를 걸어 차이를 200 ms 안으로 맞추면 선택된다.")
item("b5-unit-en-magick", "unit", "en", "prose",
 "ImageMagick policy limits break large scans",
 "Converting large TIFF scans failed with width or height exceeds limit. The distribution's policy.xml caps images at 16 KP per side and the area at 128 MP, while the scans were 20000 pixels wide. Raising the width limit in a local policy file to 32 KP, rather than deleting the policy, let them convert.",
 "32 KP", "32 MP")

# ---- subcommand ----
item("b5-sub-en-gpg", "subcommand", "en", "code",
 "Revoked signing key still trusted on build agents",
 "The build agents kept accepting artifacts signed with a key we had revoked. They had imported the public key once and never refreshed it, so they had never seen the revocation. Running\n\n```\ngpg --refresh-keys\n```\n\non each agent before verification, or shipping the revocation certificate with the agent image, made them reject the key.",
 "--refresh-keys", "--recv-keys",
 "Agents never refreshed a revoked key",
 "Artifacts signed by our revoked key still verified on build agents, which had imported the public key once and never saw the revocation. gpg --refresh-keys before each verification, or a revocation certificate baked into the agent image, fixes that.")
item("b5-sub-en-tootctl", "subcommand", "en", "prose",
 "Mastodon search index is missing old statuses",
 "After enabling Elasticsearch on an existing Mastodon server, search found only posts written since the switch. Older statuses are not indexed as they are written; the index has to be filled once with tootctl search deploy, which can take hours on a big instance and is safe to rerun. Running it with --only statuses first gave users their history sooner.",
 "deploy", "reset", rw_alike=True,
 rt="Old posts need tootctl search deploy after enabling Elasticsearch",
 rc="Enabling Elasticsearch on a running Mastodon only indexes new posts. Fill the index once with tootctl search deploy, rerunnable and slow on big servers; start with --only statuses so history is searchable early.")
item("b5-sub-ko-vagrant", "subcommand", "ko", "prose",
 "Vagrantfile 을 바꿔도 프로비저닝이 다시 돌지 않음",
 "Vagrantfile 의 셸 프로비저너에 패키지를 추가했는데 vagrant up 을 해도 새 패키지가 설치되지 않았다. 프로비저닝은 상자를 처음 만들 때만 돌기 때문이다. vagrant provision 을 따로 실행하거나 vagrant reload --provision 으로 다시 띄우자 변경이 적용됐다.",
 "provision", "resume",
 "이미 만든 Vagrant 상자는 프로비저닝을 직접 다시 돌려야 한다",
 "셸 프로비저너에 패키지를 넣고 vagrant up 을 해도 설치되지 않았다. 프로비저닝은 처음 만들 때만 돈다. vagrant provision 을 실행하거나 vagrant reload --provision 으로 다시 올리면 된다.")
# ---- Korean verb polarity ----
item("b5-pol-ko-gpg", "ko_polarity", "ko", "prose",
 "서브키만 가진 노트북에서 키 서명이 안 됨",
 "주 키를 오프라인 USB 에 두고 노트북에는 서브키만 옮겼더니 다른 사람의 키에 서명할 수 없었다. 인증(certify) 권한은 주 키에만 있어서 서브키만으로는 키 서명이 된다고 볼 수 없다. 키 서명이 필요할 때만 USB 의 주 키를 꺼내 쓰면 된다.",
 "없다", "있다",
 "키 서명은 주 키로만 할 수 있다",
 "노트북에 서브키만 두면 남의 키에 서명하지 못한다. certify 권한은 주 키에만 있어 서브키로는 키 서명이 된다고 볼 수 없다. 서명할 때만 오프라인 USB 의 주 키를 쓴다.")
item("b5-pol-ko-syncthing", "ko_polarity", "ko", "prose",
 "Syncthing 수신 전용 폴더에서 로컬 변경이 되돌아감",
 "백업 서버의 폴더를 수신 전용으로 두었더니, 서버에서 직접 고친 파일이 원격과 달라졌다는 표시만 뜨고 다른 장비로 퍼지지 않았다. 수신 전용 폴더의 로컬 변경은 전송되지 않는다. 서버 쪽 변경이 필요하면 폴더 유형을 송수신으로 바꿔야 하고, 아니면 Revert Local Changes 로 원래대로 되돌린다.",
 "전송되지 않는다", "전송된다")
item("b5-pol-ko-pandoc", "ko_polarity", "ko", "prose",
 "pandoc 으로 만든 docx 에 회사 서식이 적용되지 않음",
 "pandoc 으로 변환한 워드 문서가 기본 서식으로만 나왔다. --reference-doc 으로 회사 템플릿을 주면 스타일을 가져오지만, 템플릿의 본문 내용이나 머리글 문구는 가져오지 않는다. 스타일 이름이 pandoc 이 쓰는 이름과 같아야 적용되므로 템플릿에서 Heading 1, Body Text 같은 스타일을 고쳐야 한다.",
 "가져오지 않는다", "가져온다", rw_alike=True,
 rt="--reference-doc 은 스타일만 가져온다",
 rc="pandoc 의 docx 가 기본 서식으로 나왔다. --reference-doc 으로 회사 템플릿을 넘기면 스타일은 쓰지만 본문이나 머리글 문구는 가져오지 않는다. 템플릿의 Heading 1, Body Text 처럼 pandoc 이 쓰는 스타일 이름을 고쳐 두어야 적용된다.")

# ---- comparison words ----
item("b5-cmp-en-icecast", "comparison", "en", "prose",
 "Icecast relay mount stays silent after the master restarts",
 "The relay server's mount went silent whenever the master Icecast was restarted and never recovered on its own. The relay polls the master for its mount list every master-update-interval seconds and only retries a mount that failed after that interval passes. Setting the interval to at least 30 seconds on a busy master, and on-demand off for that relay, made the mount return within a minute.",
 "at least", "at most",
 "An Icecast relay retries a failed mount only at master-update-interval",
 "After a master restart the relayed mount stayed silent: the relay retries a failed mount only when master-update-interval has passed. Use an interval of at least 30 seconds on a busy master and turn on-demand off for the relay; the mount comes back within a minute.")
item("b5-cmp-en-tor", "comparison", "en", "prose",
 "Onion service unreachable after moving it to another host",
 "An onion service moved to a new server was unreachable for an hour. The hidden service directory with its keys has to be copied to the new host before Tor starts there; if Tor starts first it generates a new key and a new address. Copying the directory with its 0700 mode kept the old address, and starting the old host's Tor again after the move published two descriptors that fought.",
 "before", "after")
item("b5-cmp-ko-mastodon", "comparison", "ko", "prose",
 "마스토돈 사이드킥 큐가 밀려 알림이 늦음",
 "팔로워가 많은 계정이 글을 올릴 때마다 push 큐가 수만 건씩 쌓여 알림이 몇 분씩 늦었다. 사이드킥 프로세스 하나가 모든 큐를 처리하고 있었다. 동시 실행 수 25 이상의 프로세스를 push 큐 전용으로 하나 더 띄우자 지연이 사라졌다.",
 "이상", "이하",
 "push 큐 전용 사이드킥을 따로 띄워 알림 지연을 없앰",
 "큰 계정이 글을 쓰면 push 큐가 수만 건 쌓여 알림이 몇 분 늦었다. 사이드킥 하나가 모든 큐를 맡았던 탓이다. push 큐만 맡는 동시 실행 수 25 이상의 사이드킥을 하나 더 돌리면 된다.")

# ---- HTTP methods ----
item("b5-meth-en-radicale", "http_method", "en", "prose",
 "CalDAV client cannot create events behind the reverse proxy",
 "The phone's calendar app could read Radicale's calendars through the proxy but every new event failed. The proxy's allow list let through GET and PROPFIND only, so the client's PUT for a new event got 405 from the proxy itself. Allowing PUT, DELETE, REPORT and MKCALENDAR on the Radicale location fixed creating and deleting events.",
 "PUT", "POST",
 "Proxy allow list blocked CalDAV writes to Radicale",
 "Events could be read but not created through the proxy in front of Radicale: it allowed only GET and PROPFIND, so the client's PUT was answered 405 by the proxy. Let PUT, DELETE, REPORT and MKCALENDAR through on that location.")
item("b5-meth-en-mastodon", "http_method", "en", "prose",
 "Federation requests to our Mastodon are rejected by the CDN",
 "Remote servers could not deliver posts to our instance once it was behind a CDN. The CDN's bot rule challenged every POST to /inbox that carried no browser cookie, which is every federation delivery. Exempting POST to /inbox and /users/*/inbox from the challenge restored federation.",
 "POST", "GET", rw_alike=True,
 rt="A CDN bot challenge broke inbound federation",
 rc="After putting our Mastodon behind a CDN, no remote server could deliver: its bot rule challenged each cookie-less POST to /inbox, and federation deliveries are exactly that. Exempt POST to /inbox and /users/*/inbox.")
item("b5-meth-ko-syncthing", "http_method", "ko", "prose",
 "Syncthing REST API 로 재검색을 요청하면 404 가 남",
 "스크립트에서 Syncthing 의 /rest/db/scan 을 호출해 폴더 재검색을 시키려 했더니 계속 404 가 돌아왔다. 이 엔드포인트는 POST 로만 받고, 폴더 ID 를 folder 쿼리 파라미터로 넘겨야 한다. X-API-Key 헤더와 함께 POST 로 보내자 재검색이 시작됐다.",
 "POST", "GET")

# ---- HTTP status codes ----
item("b5-stat-en-coturn", "http_status", "en", "prose",
 "TURN credentials endpoint rejects the web client",
 "The web client fetched time-limited TURN credentials from our REST endpoint and got 403 every time after a deploy. The endpoint checks the Origin header against a list, and the new frontend domain was missing from it. Adding the domain to the allowed origins restored the credentials, and the client's fallback to STUN-only calls went away.",
 "403", "401",
 "New frontend domain missing from the TURN credential endpoint's origins",
 "After a deploy the web client's request for short-lived TURN credentials returned 403: the endpoint compares Origin with an allow list that lacked the new frontend domain. Add it, and calls stop falling back to STUN only.")
item("b5-stat-en-radicale", "http_status", "en", "prose",
 "Calendar sync fails with a precondition error after an edit on two devices",
 "Editing the same event on the phone and the laptop left the laptop unable to sync it, with the server answering 412. The laptop sent its old ETag in If-Match and Radicale refused to overwrite the newer version. Letting the client fetch the event again and reapply its change resolved it; turning the precondition off would lose edits.",
 "412", "409")
item("b5-stat-ko-obs", "http_status", "ko", "prose",
 "OBS 에서 RTMP 서버로 송출하면 인증 오류",
 "자체 nginx-rtmp 서버로 송출하려 하자 OBS 가 연결에 실패했고, 서버 로그에는 on_publish 콜백이 401 을 돌려준 기록이 있었다. 콜백 서버는 스트림 키를 name 파라미터로 받는데 OBS 설정의 스트림 키에 공백이 섞여 있었다. 키를 다시 붙여 넣자 송출이 시작됐다.",
 "401", "404",
 "on_publish 콜백이 스트림 키 공백 때문에 401 을 돌려줌",
 "OBS 송출이 실패해서 보니 nginx-rtmp 의 on_publish 콜백이 401 을 돌려주고 있었다. 콜백은 스트림 키를 name 파라미터로 받는데, OBS 에 넣은 키 끝에 공백이 붙어 있었다. 키를 다시 넣으면 된다.")
# ---- environment variable names ----
item("b5-env-en-cuda", "env_var", "en", "prose",
 "Training job uses the wrong GPU on a shared workstation",
 "Two people's jobs landed on the same GPU of a four-GPU workstation although one had asked for the third card. The framework numbers GPUs by speed, while nvidia-smi numbers them by PCI bus, so index 2 meant different cards. Setting CUDA_DEVICE_ORDER=PCI_BUS_ID before the job starts makes the framework's numbering match nvidia-smi.",
 "CUDA_DEVICE_ORDER", "CUDA_VISIBLE_DEVICES",
 "CUDA and nvidia-smi number GPUs differently",
 "On the shared four-GPU box a job asking for the third card still shared a GPU with another: CUDA orders devices fastest first, nvidia-smi by PCI bus. Export CUDA_DEVICE_ORDER=PCI_BUS_ID before starting so both agree.")
item("b5-env-en-gpg", "env_var", "en", "prose",
 "gpg in a script asks for a passphrase on the wrong terminal",
 "A release script run over SSH hung while signing: the pinentry prompt appeared on the desktop session's screen instead of the SSH terminal. gpg-agent uses the terminal it was told about when it started. Exporting GPG_TTY=$(tty) in the shell profile and running gpg-connect-agent updatestartuptty /bye before signing moved the prompt to the SSH session.",
 "GPG_TTY", "GPG_AGENT_INFO", rw_alike=True,
 rt="pinentry opens on the desktop when signing over SSH",
 rc="Signing over SSH hung because pinentry popped up on the desktop session, the terminal gpg-agent knew from its start. Export GPG_TTY=$(tty) in the profile and run gpg-connect-agent updatestartuptty /bye before signing.")
item("b5-env-ko-pandoc", "env_var", "ko", "prose",
 "CI 에서 pandoc PDF 변환이 한글 글꼴을 찾지 못함",
 "CI 컨테이너에서 pandoc 으로 PDF 를 만들면 한글이 모두 빠졌다. xelatex 는 fontconfig 로 글꼴을 찾는데, 컨테이너에 넣은 나눔 글꼴 디렉터리를 fontconfig 가 몰랐다. 글꼴을 /usr/local/share/fonts 에 두고 fc-cache 를 돌리거나 OSFONTDIR 을 그 디렉터리로 지정하자 한글이 나왔다.",
 "OSFONTDIR", "TEXMFHOME",
 "컨테이너의 한글 글꼴을 fontconfig 가 찾게 해야 한다",
 "CI 의 pandoc PDF 에서 한글이 사라진 것은 xelatex 가 fontconfig 로 글꼴을 찾는데 컨테이너의 나눔 글꼴 위치를 몰랐기 때문이다. /usr/local/share/fonts 에 넣고 fc-cache 를 하거나 OSFONTDIR 로 그 경로를 알려 주면 된다.")

# ---- config section ----
item("b5-sec-en-radicale", "config_section", "en", "config",
 "Radicale accepts any password after an upgrade",
 "After moving Radicale to a new host, any password logged in. The htpasswd settings had been pasted under the wrong section:\n\n```ini\n[rights]\ntype = htpasswd\nhtpasswd_filename = /etc/radicale/users\n```\n\nso authentication stayed at its default of none. Moving the lines under [auth] made Radicale check the file again.",
 "[rights]", "[storage]",
 "htpasswd settings under the wrong Radicale section",
 "Radicale on the new host let any password in: type = htpasswd and htpasswd_filename had been put under [rights], so [auth] kept its default of none. Put them under [auth].")
item("b5-sec-en-fail2ban", "config_section", "en", "config",
 "fail2ban ignores the office network setting",
 "The office's own addresses kept getting banned after failed logins. ignoreip had been added to jail.local as\n\n```ini\n[sshd]\nenabled = true\n\n[recidive]\nignoreip = 127.0.0.1/8 203.0.113.0/24\n```\n\nso it applied to the recidive jail only. Setting ignoreip under [DEFAULT] made every jail skip the office range.",
 "[DEFAULT]", "[sshd]")
item("b5-sec-ko-tor", "config_section", "ko", "config",
 "Tor 브리지 설정이 적용되지 않음",
 "검열이 있는 망에서 Tor 브라우저가 아닌 시스템 tor 데몬에 obfs4 브리지를 쓰려 했는데 계속 직접 연결을 시도했다. torrc 에는 섹션이 없는데, 다른 프로그램의 설정처럼 [Bridges] 아래에 Bridge 줄을 적어 두어 tor 가 그 줄을 읽지 않았다. UseBridges 1 과 ClientTransportPlugin 줄을 함께 넣고 섹션 머리를 지우자 브리지로 연결됐다.",
 "[Bridges]", "[Client]")

# ---- quoted value ----
item("b5-quote-en-obs", "quoted_value", "en", "prose",
 "OBS recordings cannot be opened after a crash",
 "A two-hour recording was unreadable after OBS crashed near the end. MP4 writes its index at the end of the file, so an interrupted file has none. Setting the recording format to \"mkv\" keeps a crash from losing the recording; Remux Recordings in the File menu turns it into MP4 afterwards.",
 "\"mkv\"", "\"mov\"",
 "Record OBS to MKV so a crash does not lose the file",
 "An OBS crash at the end of a two-hour session left an MP4 without its index, which MP4 only writes when the file is closed. Record to \"mkv\" and use File > Remux Recordings to get an MP4 later.")
item("b5-quote-en-graphviz", "quoted_value", "en", "code",
 "Graphviz draws a huge diagram left to right",
 "A dependency graph of 300 modules rendered as a strip several metres wide. The graph had\n\n```\ndigraph deps { rankdir=\"LR\"; ... }\n```\n\nwhich lays ranks out horizontally. Switching to rankdir=\"TB\" and adding ranksep=0.3 gave a graph that fits a page; for really large graphs, sfdp instead of dot is faster and rounder.",
 "\"TB\"", "\"BT\"", rw_alike=True,
 rt="rankdir LR made a 300-node Graphviz graph metres wide",
 rc="The 300-module dependency graph came out as an extremely wide strip because it set rankdir=\"LR\". Use rankdir=\"TB\" with ranksep=0.3 to fit a page, and sfdp rather than dot once graphs get very big.")
item("b5-quote-ko-libre", "quoted_value", "ko", "prose",
 "LibreOffice 로 CSV 를 변환하면 한글이 깨짐",
 "soffice --headless 로 CSV 를 xlsx 로 바꾸자 한글 열이 모두 깨졌다. 입력 필터가 문자 집합을 추측하지 못해 시스템 기본값을 썼기 때문이다. --infilter=\"CSV:44,34,76\" 처럼 필터 옵션의 세 번째 값에 UTF-8 을 뜻하는 \"76\" 을 주자 제대로 읽혔다.",
 "\"76\"", "\"65\"",
 "CSV 입력 필터에 문자 집합을 직접 줘야 한다",
 "헤드리스 soffice 의 CSV → xlsx 변환에서 한글이 깨진 것은 필터가 문자 집합을 몰라 시스템 기본값을 썼기 때문이다. --infilter 옵션의 세 번째 자리에 UTF-8 인 \"76\" 을 넣으면 정상으로 읽는다.")

# ---- case-sensitive names ----
item("b5-case-en-gpg", "case", "en", "code",
 "Backup script exports no secret key",
 "The key backup script produced an empty file. It listed keys with\n\n```\ngpg -K --with-colons\n```\n\nto pick the fingerprint, which lists only keys whose secret part is on this machine, and the laptop held just subkeys' stubs. Running it on the offline machine that has the primary key fixed the backup.",
 "-K", "-k",
 "gpg -K shows only keys with local secret parts",
 "An empty key backup came from picking the fingerprint with gpg -K --with-colons on a laptop that only had subkey stubs; -K lists secret keys present locally. Run the backup on the offline machine holding the primary key.")
item("b5-case-en-dot", "case", "en", "prose",
 "Graphviz output file is empty in the docs build",
 "The docs build produced zero-byte diagrams after moving to a Linux runner. The Makefile called dot -Tsvg -o out/Graph.svg but the include in the docs referenced out/graph.svg, which on the case-insensitive Mac filesystem was the same file. Renaming the target to match the include fixed the diagrams on Linux.",
 "out/Graph.svg", "out/GRAPH.svg")
item("b5-case-ko-env", "case", "ko", "prose",
 "Vagrant 가 프록시 설정을 무시함",
 "사내망에서 vagrant box add 가 시간 초과로 실패했다. 셸에는 http_proxy 를 소문자로 설정해 두었는데, vagrant 가 쓰는 내장 curl 은 이 값을 읽었지만 상자 안의 apt 는 HTTP_PROXY 만 읽었다. vagrant-proxyconf 플러그인으로 상자 안에도 프록시를 넘기자 설치가 끝까지 진행됐다.",
 "HTTP_PROXY", "Http_Proxy")

# ---- singular/plural resource names ----
item("b5-plural-en-mastodon", "plural", "en", "prose",
 "Mastodon moderation script gets an empty answer from the admin API",
 "A moderation script that pulled open reports every five minutes started getting empty lists after the token was rotated. It called GET /api/v1/admin/reports with the new token, which had been created with only the read:statuses scope. Giving the token admin:read:reports brought the reports back; the API answers an unscoped admin call with an empty list rather than an error on this version.",
 "/api/v1/admin/reports", "/api/v1/admin/report",
 "Rotated token lacked the admin reports scope",
 "After a token rotation our five-minute moderation poll of GET /api/v1/admin/reports returned nothing: the new token only had read:statuses. Grant admin:read:reports; this version answers an unscoped admin request with an empty list, not an error.")
item("b5-plural-en-vagrant", "plural", "en", "code",
 "Vagrant ignores the second synced folder",
 "Only one of two folders showed up inside the box. The Vagrantfile had\n\n```ruby\nconfig.vm.synced_folder \"./src\", \"/srv/src\"\nconfig.vm.synced_folder \"./data\", \"/srv/src\"\n```\n\nso the second mount used the same guest path as the first and hid it. Giving the data folder its own guest path, /srv/data, showed both.",
 "config.vm.synced_folder", "config.vm.synced_folders")
item("b5-plural-ko-tootctl", "plural", "ko", "prose",
 "tootctl 로 오래된 미리보기 카드가 지워지지 않음",
 "디스크 정리를 위해 tootctl media remove 를 돌렸는데 링크 미리보기 이미지는 그대로 남았다. 미리보기 카드는 별도의 명령인 tootctl preview_cards remove 로 지워야 한다. --days 30 을 주어 한 달 넘은 카드만 지우자 수 GB 가 비었다.",
 "preview_cards", "preview_card",
 "링크 미리보기는 tootctl preview_cards remove 로 따로 지운다",
 "tootctl media remove 로는 링크 미리보기 이미지가 지워지지 않는다. tootctl preview_cards remove --days 30 을 따로 돌려 한 달 지난 카드를 지우니 몇 GB 가 비었다.")
# ---- OS / distribution ----
item("b5-distro-en-coturn", "distro", "en", "prose",
 "coturn cannot bind to port 443 as a service",
 "To get TURN through the strictest firewalls we moved coturn's TLS listener to 443, and the service failed to start with permission denied on bind. On Debian the packaged unit runs turnserver as the turnserver user without privileges. Adding AmbientCapabilities=CAP_NET_BIND_SERVICE in a drop-in for the unit let it bind 443 without running as root.",
 "Debian", "Alpine",
 "Unprivileged coturn needs a capability to bind 443",
 "Moving coturn's TLS listener to 443 made the service fail with permission denied on bind: Debian's packaged unit starts turnserver as an unprivileged turnserver user. A drop-in with AmbientCapabilities=CAP_NET_BIND_SERVICE lets it bind 443 without root.")
item("b5-distro-en-fail2ban", "distro", "en", "prose",
 "fail2ban bans have no effect on a firewalld host",
 "fail2ban reported bans but the banned addresses kept connecting. On Rocky Linux the host's firewall is firewalld, and the jail's default iptables action inserted rules into a chain that firewalld's nftables ruleset never consults. Setting banaction = firewallcmd-rich-rules in jail.local made the bans take effect.",
 "Rocky Linux", "Arch Linux", rw_alike=True,
 rt="Banned addresses still connect: fail2ban's iptables action under firewalld",
 rc="On Rocky Linux, fail2ban logged bans while the addresses kept getting in, because its default iptables action writes to a chain firewalld's nftables rules never read. Use banaction = firewallcmd-rich-rules in jail.local.")
item("b5-distro-ko-gpsd", "distro", "ko", "prose",
 "gpsd 가 부팅 때 수신기를 열지 못함",
 "Raspberry Pi OS 에서 부팅 직후에는 gpsd 가 수신기를 못 열고, 몇 분 뒤 수동으로 재시작해야 위치가 나왔다. /etc/default/gpsd 의 DEVICES 에 장치를 적지 않아 핫플러그 규칙에만 의존했는데, 부팅 때는 규칙이 gpsd 보다 먼저 실행됐다. DEVICES=\"/dev/serial0\" 을 적고 GPSD_OPTIONS 에 -n 을 주자 부팅 때부터 위치가 잡혔다.",
 "Raspberry Pi OS", "Ubuntu Server",
 "DEVICES 를 비워 두면 부팅 때 gpsd 가 수신기를 놓친다",
 "Raspberry Pi OS 부팅 직후 gpsd 가 수신기를 열지 못했다. /etc/default/gpsd 의 DEVICES 가 비어 핫플러그 규칙에만 기대는데, 부팅 때는 규칙이 gpsd 보다 먼저 돈다. DEVICES=\"/dev/serial0\" 과 GPSD_OPTIONS 의 -n 을 넣으면 된다.")

# ---- file extension ----
item("b5-ext-en-pandoc", "file_ext", "en", "prose",
 "Pandoc ignores the Lua filter in a shared defaults file",
 "A defaults file shared by the team listed a filter that pandoc never ran. The entry named filters/wrap.lua, but the file in the repository was filters/wrap.py, so pandoc treated it as a JSON filter to execute and skipped it silently when it was not executable. Naming the Lua file correctly made pandoc run it in process.",
 "filters/wrap.py", "filters/wrap.js",
 "A filter's extension decides how pandoc runs it",
 "The team defaults file pointed at filters/wrap.lua while the repository had filters/wrap.py, so pandoc took it for a JSON filter to execute and quietly skipped it as not executable. With the Lua file named right, pandoc runs it in process.")
item("b5-ext-en-magick", "file_ext", "en", "prose",
 "Transparent logos get a black background in thumbnails",
 "Logo thumbnails came out with black backgrounds. The pipeline wrote them as logo.jpg, and JPEG has no alpha channel, so the transparent pixels became black. Writing logo.png instead, or flattening onto white with -background white -flatten before saving as JPEG, kept them readable.",
 "logo.png", "logo.webp")
item("b5-ext-ko-libre", "file_ext", "ko", "prose",
 "헤드리스 변환 결과 파일이 엉뚱한 형식으로 나옴",
 "soffice --headless --convert-to 로 발표 자료를 변환하자 결과물이 문서 형식으로 나왔다. 입력 파일이 slides.odt 로 저장되어 있어서 Writer 필터가 골라졌기 때문이다. 원본을 slides.odp 로 다시 저장하고 --convert-to pdf:impress_pdf_Export 로 필터를 직접 지정하자 슬라이드로 변환됐다.",
 "slides.odp", "slides.ods",
 "확장자 때문에 Writer 필터로 변환된 발표 자료",
 "발표 자료가 문서 형식으로 변환된 것은 원본이 slides.odt 라서 Writer 필터가 선택됐기 때문이다. slides.odp 로 저장하고 --convert-to pdf:impress_pdf_Export 로 필터를 명시하면 슬라이드 그대로 나온다.")

# ---- a number spelled in words ----
item("b5-word-en-fail2ban", "number_word", "en", "prose",
 "Legitimate users banned after a password change",
 "After a forced password rotation, staff whose phones still tried the old password were banned within a minute. The mail jail counted every failed IMAP login, and the phones retried three times a minute. Raising maxretry for the dovecot jail to ten failures within ten minutes, and asking staff to update their phones, stopped the bans without opening the door to guessing.",
 "three", "five",
 "Phones with old passwords tripped the dovecot jail",
 "Once the passwords were rotated, phones still using the old one tried three times a minute and fail2ban's mail jail banned the staff. Allow ten failures in ten minutes in the dovecot jail and have staff update their phones.")
item("b5-word-en-syncthing", "number_word", "en", "prose",
 "Versioned files fill the Syncthing server",
 "The central Syncthing node's disk filled with old versions. Staggered versioning keeps one version per hour for the first day and then one a day for a month, and the folder had a maxAge of ninety days. Setting maxAge to thirty days and cleaning the .stversions folder once freed most of the disk.",
 "thirty", "sixty", rw_alike=True,
 rt="Staggered versioning with a long maxAge filled the disk",
 rc="Old versions in .stversions filled the central Syncthing node: staggered versioning with a maxAge of ninety days. Cut maxAge to thirty days and clean .stversions once.")
item("b5-word-ko-icecast", "number_word", "ko", "prose",
 "Icecast 가 청취자 수가 늘면 새 접속을 거부함",
 "특집 방송 때 청취자가 몰리자 Icecast 가 새 접속을 거부했다. icecast.xml 의 clients 한도는 백으로 되어 있었는데 대역폭은 충분했다. clients 를 오백으로 올리고 마운트의 max-listeners 도 같이 맞추자 모두 들을 수 있었다.",
 "오백", "삼백",
 "Icecast clients 한도 때문에 청취자가 막힘",
 "특집 방송에 청취자가 몰렸을 때 대역폭은 남았는데 Icecast 가 접속을 거부했다. clients 한도가 백이었기 때문이다. clients 를 오백으로 올리고 max-listeners 도 맞췄더니 해결됐다.")

# ---- a default vs an explicit value ----
item("b5-dflt-en-chrony", "default_explicit", "en", "config",
 "chrony serves time to nobody on the LAN",
 "LAN clients could not sync from the new time server although chronyd ran and was synchronised. chrony does not serve time to anyone unless it has an allow line, and the default is to refuse all clients. Adding\n\n```\nallow 192.168.10.0/24\n```\n\nto chrony.conf and opening UDP 123 in the firewall let the clients sync.",
 "the default is to refuse all clients", "the default is to serve all clients",
 "chrony needs an allow line before it serves clients",
 "The new chronyd was synchronised but no LAN client could use it: without an allow line chrony serves nobody, the default is to refuse all clients. Put allow 192.168.10.0/24 in chrony.conf and open UDP 123.")
item("b5-dflt-en-coturn", "default_explicit", "en", "config",
 "coturn relays to private addresses",
 "A security review found that our TURN server would relay to addresses inside our own network. coturn relays to any peer unless told not to; the config left the setting at its default. Adding denied-peer-ip ranges for the private networks and no-multicast-peers closed the hole, with allowed-peer-ip for the one internal media server that needs it.",
 "left the setting at its default", "set the setting explicitly")
item("b5-dflt-ko-radicale", "default_explicit", "ko", "config",
 "Radicale 가 다른 사용자의 캘린더도 보여 줌",
 "팀원끼리 한 Radicale 서버를 쓰는데, 로그인만 하면 남의 캘린더까지 읽을 수 있었다. [rights] 의 type 을 기본값으로 두어 인증된 사용자 누구나 모든 컬렉션을 읽고 쓸 수 있었던 것이다. type = owner_only 로 명시하자 각자 자기 캘린더만 보게 됐다.",
 "기본값으로 두어", "owner_write 로 두어",
 "Radicale rights 를 기본값으로 두면 모든 캘린더가 공유된다",
 "로그인한 팀원이 남의 캘린더까지 읽었다. [rights] type 을 기본값으로 두어 인증된 사람은 누구나 모든 컬렉션에 접근했다. type = owner_only 로 명시하면 자기 것만 보인다.")

# ---- rewordings only ----
REWORDS = [
 ("b5-rw-en-graphviz", "rewording", "en", "prose",
  "Graphviz labels with HTML tables render as literal text",
  "Node labels meant as HTML tables appeared as raw markup in the rendered graph. The label was written as label=\"<table>...</table>\", which Graphviz reads as an ordinary string. HTML-like labels need angle brackets instead of quotes, label=<<table>...</table>>, and the markup must be well formed or dot rejects the graph.",
  "HTML table labels show as raw markup in Graphviz",
  "Our graph showed table markup as plain text because the node's label used quotes; Graphviz only parses HTML-like labels delimited by angle brackets, label=<<table>...</table>>, and dot refuses malformed markup."),
 ("b5-rw-en-tor", "rewording", "en", "prose",
  "Tor bootstrap stalls at 10 % on a VM with a wrong clock",
  "A new VM's Tor stopped bootstrapping at 10 % with consensus errors. The VM's clock was a day off, so the directory documents looked expired or not yet valid. Installing chrony and letting the clock sync before starting tor fixed the bootstrap.",
  "Wrong VM clock stalls Tor at 10 %",
  "Tor on a fresh VM hung at 10 % of bootstrap with consensus errors because the clock was off by a day and every directory document seemed out of its validity window. Sync the clock with chrony first, then start tor."),
 ("b5-rw-ko-obs", "rewording", "ko", "prose",
  "OBS 녹화에서 소리와 영상이 점점 어긋남",
  "한 시간짜리 녹화를 하면 끝으로 갈수록 소리가 영상보다 늦었다. USB 오디오 장치가 48 kHz 로 동작하는데 OBS 의 샘플 레이트는 44.1 kHz 였다. OBS 오디오 설정을 48 kHz 로 맞추자 어긋남이 사라졌다.",
  "샘플 레이트가 달라 OBS 녹화의 싱크가 밀림",
  "녹화가 길어질수록 소리가 늦게 나온 것은 USB 오디오가 48 kHz 인데 OBS 가 44.1 kHz 로 설정되어 있었기 때문이다. OBS 의 샘플 레이트를 48 kHz 로 바꾸면 해결된다."),
 ("b5-rw-ko-gpg", "rewording", "ko", "prose",
  "만료된 서브키로 서명한 커밋이 검증되지 않음",
  "서명 서브키의 유효 기간이 지나자 새 커밋 서명이 실패했다. gpg --quick-set-expire 로 서브키의 만료일을 1년 늘리고 공개 키를 다시 내보내 키 서버와 Git 호스팅에 올리자 서명과 검증이 다시 됐다.",
  "서브키 만료일을 늘리고 공개 키를 다시 올림",
  "서명용 서브키가 만료돼 커밋 서명이 실패했다. gpg --quick-set-expire 로 서브키 기간을 1년 연장한 뒤 공개 키를 다시 내보내 키 서버와 Git 호스팅에 등록하면 서명도 검증도 다시 된다."),
]

def swap(text, old, new):
    # A Hangul detail may carry a particle or an ending after it (이상의, 오백으로).
    tail = '' if '\uac00' <= old[-1] <= '\ud7a3' else r'(?![\w\-])'
    pat = r'(?<![\w.\-/\\])' + re.escape(old) + tail
    return re.subn(pat, lambda m: new, text)

def build(items, rewords, out):
    here = os.path.dirname(os.path.abspath(__file__))
    errs, lines = [], []
    for (iid, cat, lang, form, title, content, old, new, rt, rc, rw_alike) in items:
        bt, n1 = swap(title, old, new)
        bc, n2 = swap(content, old, new)
        if n1 + n2 == 0:
            errs.append(f"{iid}: {old!r} not found")
        base = {"category": cat, "lang": lang, "form": form}
        lines.append(dict(id=iid + "-alike", label="distinct", variant="one_detail", **base,
                          **{"from": old, "to": new}, a={"title": title, "content": content}, b={"title": bt, "content": bc}))
        if rt is None:
            continue
        if old not in rt + "\n" + rc:
            errs.append(f"{iid}: rewording lacks {old!r}")
        lines.append(dict(id=iid + "-reworded", label="reworded", variant="rewrite", **base,
                          a={"title": title, "content": content}, b={"title": rt, "content": rc}))
        if rw_alike:
            wt, m1 = swap(rt, old, new)
            wc, m2 = swap(rc, old, new)
            if m1 + m2 == 0:
                errs.append(f"{iid}: {old!r} not in its rewording")
            lines.append(dict(id=iid + "-rwalike", label="distinct", variant="reworded_one_detail", **base,
                              **{"from": old, "to": new}, a={"title": title, "content": content}, b={"title": wt, "content": wc}))
    for (iid, cat, lang, form, title, content, rt, rc) in rewords:
        lines.append(dict(id=iid, label="reworded", variant="rewrite", category=cat, lang=lang, form=form,
                          a={"title": title, "content": content}, b={"title": rt, "content": rc}))
    ids = [l["id"] for l in lines]
    if len(set(ids)) != len(ids):
        errs.append("duplicate ids")
    if errs:
        print("\n".join(errs)); sys.exit(1)
    with open(os.path.join(here, out), "w", encoding="utf-8") as f:
        for l in lines:
            f.write(json.dumps(l, ensure_ascii=False) + "\n")
    ko = sum(l["lang"] == "ko" for l in lines)
    print("OK", out, len(lines), sum(l["label"] == "distinct" for l in lines), "look-alikes,", ko, "Korean")

build(ITEMS, REWORDS, "pairs-lookalike-own5.jsonl")
