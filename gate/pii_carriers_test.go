package gate

import (
	"strings"
	"testing"
)

// TestPIICarriers pins the carriers read from gate9's misses (session 10)
// by their shape, each beside a look-alike that must pass: the separators
// settings travel with (subscripts, JSON-escaped quotes, declared types,
// =>), YAML values opening on &, HAR headers and cookies, PowerShell,
// identity documents and plates beside their words, dates of birth and
// street addresses.
func TestPIICarriers(t *testing.T) {
	tests := []struct {
		text string
		want string // comma-separated kinds; "" passes
	}{
		{"[www]\nenv[DB_PASS] = Gangnam!db2024", PIIPassword},
		{"env[TOSS_SECRET_KEY] = live_sk_Z1aOwX7K8mYd2vQpLr5nTb9e", PIIAPIToken}, // by its vendor's prefix now
		{"env[APP_ENV] = production", ""},
		{`os.environ["OPENAI_API_KEY"] = "Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd"`, PIISecret},
		{`os.environ["OPENAI_API_KEY"] = os.getenv("KEY_FROM_VAULT")`, ""},
		{`settings.DATABASES['default']['PASSWORD'] = 'Qz7!vLm2Kx9'`, PIIPassword},
		{`"source": ["api_key = \"Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd\"\n", "client = Client(api_key)"]`, PIISecret},
		{`"source": ["password = \"Qz7!vLm2Kx9\""]`, PIIPassword},
		{`"source": ["api_key = os.environ[\"API_KEY\"]"]`, ""},
		{`const API_KEY: &str = "Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd";`, PIISecret},
		{`const API_KEY: &str = env!("API_KEY");`, ""},
		{`private val apiToken: String = "Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd"`, PIISecret},
		{`var apiSecret string = "Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd"`, PIISecret},
		{"interface Login { password: string; remember: boolean }", ""},
		{`'password' => 'Qz7!vLm2Kx9',`, PIIPassword},
		{`'password' => env('DB_PASSWORD'),`, ""},
		{`spring.datasource.password: "&ar77W%rSACjxa"`, PIIPassword},
		{"password: &ar77W%rSACjxa", PIIPassword},
		{"password: &db_password ${DB_PASSWORD}", ""},
		{`const PASSWORD: &str = "hunter2";`, ""},
		{"GET /login?user=bob&password=&next=/home", ""},
		{"data:\n  password: TWFuZ28hSGFyYm9yLTc3MzE=", PIIPassword},
		{`$cred = ConvertTo-SecureString 'Qz7!vLm2Kx9' -AsPlainText -Force`, PIIPassword},
		{`$cred = ConvertTo-SecureString $env:SVC_PASSWORD -AsPlainText -Force`, ""},
		{`{"name":"Authorization","value":"Bearer Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd"}`, PIISecret},
		{`{"name":"Authorization","value":"Bearer <token>"}`, ""},
		{"Cookie: theme=dark; sessionid=Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd", PIISecret},
		{"curl -b 'JSESSIONID=9F2C4A7B1E8D3F6A0C5B9E2D7A4F1C8B' https://intra.example.com/app", PIISecret},
		{"Set-Cookie: sessionid=<session id>; HttpOnly; Secure", ""},
		{"Cookie: theme=dark; lang=en-GB", ""},
		// Identity documents and plates beside their words.
		{"The complaint came from Ana Beatriz Costa, CPF 048.317.962-05.", PIINationalID},
		{"pedido 048.317.962-05 enviado", ""},
		{"Passport number: 533380006, issued to Maria Lopez", PIINationalID},
		{"여권번호 M48213075 로 예약", PIINationalID},
		{"passport-jwt 4.0.1 and passport 0.7.0", ""},
		{"the reporter's car, licence plate AB12 CDE, was towed", PIIPlate},
		{"차량번호 12가 3456 차주", PIIPlate},
		{"license plate recognition with YOLOv8 at 30 fps on a T4", ""},
		// Dates of birth and addresses.
		{"My name is Derek Mwangi, born 29 Feb 2004, and I can't register", PIIBirthDate},
		{"고객 문의: 김도윤 / 1988년 11월 3일생", PIIBirthDate},
		{"DOB 14/03/1987 on the form", PIIBirthDate},
		{"date of birth is validated as YYYY-MM-DD before it is stored", ""},
		{"a fixture user with date of birth 2000-02-29 (example)", ""},
		{"I live at 118 Ngong Road, Nairobi", PIIAddress},
		{"Delivery to Lindenstrasse 27, Apt 4B, 80331 Muenchen", PIIAddress},
		{"고객 배송지: 서울특별시 마포구 월드컵북로 402, 102동", PIIAddress},
		{"서울특별시 종로구 세종대로 209 는 정부서울청사다", ""},
		{"ship to 123 Main Street, Anytown", ""},
		{"Google's geocoder returns 1600 Amphitheatre Parkway for the sample", ""},
		{"raise net.core.netdev_budget to 600 and restart", ""},
		// More carriers: Postman, Java XML properties, htpasswd; more
		// countries' ids by their checks beside their names, IMEI, VIN.
		{`{"key": "apiKey", "value": "Zq8vL2mKp4Tw9Rx3Nb7Yc1Hd", "type": "string"}`, PIISecret},
		{`{"key": "baseUrl", "value": "https://api.example.com"}`, ""},
		{`<entry key="db.password">Qz7!vLm2Kx9</entry>`, PIIPassword},
		{`<property name="password" value="Qz7!vLm2Kx9"/>`, PIIPassword},
		{`<property name="url" value="jdbc:postgresql://db/app"/>`, ""},
		{"deploy:$2y$05$8Lr0Cjx5Bq0r1Q6eJwq0peTqYVYj8cM0l2sYlq1vWZ8o0Bv3hYh7u", PIIPassword},
		{"admin:$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/", ""},
		{"SIN 046 454 286 of the customer", PIINationalID},
		{"order 046 454 286 shipped", ""},
		{"BSN 111222333 is the test number", ""},
		{"NRIC S8346728B of the tenant", PIINationalID},
		{"NRIC S8346728C of the tenant", ""},
		{"codice fiscale RSSMRA85T10A562S", PIINationalID},
		{"PAN ABCPD1234F on the invoice", PIINationalID},
		{"IMEI 353294096125531 of the reporter's phone", PIIDeviceID},
		{"VIN 1HGCM82633A004352 owned by Dana Whitfield", PIIVehicleID},
		{"the build sha 1HGCM82633A004352", ""},
		{"'-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEA... -----END OPENSSH PRIVATE KEY-----'", ""},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDtJ0Ka1mGY9t3oQ8j5Hb6tZx0l0Ijw2x5xB2k0gvU1KgAAAJgAAAAA\n-----END OPENSSH PRIVATE KEY-----", PIIPrivateKey},
		{"CPF 000.000.000-00 is the form's mask", ""},
		{"validate-docbr 1.10 `CPF().validate('123.456.789-00')` returns False because the check digits are wrong.", ""},
		{"cliente Ana Costa, CPF 123.456.780-21, pediu reembolso", PIINationalID},
		{"the MRZ of ICAO's specimen passport, L898902C3, parses", ""},
		{"홍길동 / 생년월일 1990년 1월 1일생 / 010-0000-0000 은 양식 예시", ""},
		{"geocode 10 Downing Street and 1600 Pennsylvania Avenue for the demo", ""},
		// A sample name or an example word counts in the value's own
		// sentence only, not a sentence later.
		{"customer Hannah Weisz, DOB 14/07/1986, ... Our form's placeholder reads John Smith.", PIIBirthDate},
		{"customer Hannah Weisz, DOB 14/07/1986, asked for a refund.\nOur form's placeholder reads John Smith.", PIIBirthDate},
		{"e.g. DOB 14/07/1986 on the sign-up form", ""},
		// A technical word beside the value: the software's figure, no
		// person's.
		{"My rclone 1.65 sync of 1200 Google Drive files for a client hit the 750 GB/day upload quota; --bwlimit 8M keeps it under.", ""},
		{"카카오 로컬 API 로 '강남구 테헤란로 152' 같은 도로명 주소를 좌표로 바꿀 때 배송지 좌표가 틀어지면 x,y 순서를 확인하세요.", ""},
		{"A user born 31 Dec 1969 maps to -86400 in Unix time; JavaScript Date handles it, but MySQL FROM_UNIXTIME returns NULL for negatives.", ""},
		{"Laravel Passport's default token lifetime is 31536000 seconds; set Passport::tokensExpireIn() in AuthServiceProvider.", ""},
		{"License plate OCR with PaddleOCR 2.7 on an RTX 3060 runs at 38 fps with the PP-OCRv4 det model.", ""},
		{"번호판 인식 모델(YOLOv8n)을 RTX 3060 에서 돌리면 38 fps 정도 나옵니다.", ""},
		{"Our client lives at 1200 Google Drive, Mountain View. The API call for her failed.", PIIAddress},
		// Dates that stand for no birth.
		{"생년월일 1900-01-01 을 '모름'으로 쓰는 레거시 테이블은 pandas to_datetime 에서 NaT 처리하세요.", ""},
		{"회원 생년월일 1900-01-01 은 입력하지 않은 값입니다", ""},
		{"users born 31 Dec 1969 show up when the stored value is -1", ""},
		{"고객 생년월일 1986-07-14 로 본인 확인", PIIBirthDate},
		// A passport's bare digits need its word right beside and no unit.
		{"The passport gem caches 12000000 rows for each customer", ""},
		{"Laravel Passport issues personal access tokens; our staging DB holds 12000000 rows", ""},
		{"Passport no. 533380006 belongs to the customer", PIINationalID},
		// A GPU's model number is no plate.
		{"plate reader box: Jetson plus an RTX 3060, 38 per second", ""},
		{"the reporter's car, plate B-XY 123, was towed", PIIPlate},
		// A number that counts what follows the street's word.
		{"my backup copied 1200 Google Drive files for a client overnight", ""},
		{"my client lives at 1200 Google Drive in Mountain View", PIIAddress},
		{"RFC 5737 reserves 192.0.2.0/24; registration of RFC 3849 followed", ""},
	}
	for _, tt := range tests {
		if got := strings.Join(DetectPII(tt.text), ","); got != tt.want {
			t.Errorf("DetectPII(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
