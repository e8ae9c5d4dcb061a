package gate

import (
	"reflect"
	"testing"
)

// TestPIIProbes22 holds the shapes session 22 added: a proxy's Basic
// credential, Nigerian and Egyptian mobiles, addresses beside a recipient
// in the languages of their street forms, postcodes after a comma, Polish
// streets, an Elm Street house.
func TestPIIProbes22(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"CONNECT api.partner.io:443 HTTP/1.1\nProxy-Authorization: Basic Y2ktYm90OmhaNHJUOHdRMW1YNg==", []string{PIISecret}},
		{`kyc.review agent="Chinedu Okafor" phone=0803 482 9167 bvn_check=ok`, []string{PIIPhone}},
		{`Label API rejected: destinatario "Luca Romano", indirizzo "Via Garibaldi 12, 20121 Milano MI"`, []string{PIIAddress}},
		{`invoice 2026-0912 cliente="Carmen López" direccion="Calle de Alcalá 48, 3º B, 28014 Madrid"`, []string{PIIAddress}},
		{"Kurier nie dostarczył paczki: Anna Kowalska, ul. Marszałkowska 84/92 m. 15, 00-514 Warszawa.", []string{PIIAddress}},
		{`{"customer":"Jonas Weber","phone":"+49 151 23456789","street":"Lindenstraße 14, 10969 Berlin"}`, []string{PIIAddress, PIIPhone}},
		{`USPS verify mismatch for Michael Brown: input="1428 Elm Street Apt 5B, Springfield, IL 62704"`, []string{PIIAddress}},
		// A Secret's data: base64 of a password, though letters alone.
		{"kind: Secret\ndata:\n  password: UmsyIXBaOXZRdzcj", []string{PIIPassword}},
		{"kind: ConfigMap\ndata:\n  mode: ProductionOnly", nil},
		// Push registrations and advertising ids are devices'.
		{"token: M5tBhTuiBmga90b7mx9hk5:APA91bvOMkfgX28k-HR2BY_3LdpjtZuU2p4nBapIRcQf6l2ga6hkbe4hZO3RPvdOL6bPlUJf28Um_ITSETUY", []string{PIIDeviceID}},
		{"APNs answered BadDeviceToken for b370bcb35d0397cd67a4d71b329fe9f6f4a95c79b0f5b85ce6ec61a6c40385b7.", []string{PIIDeviceID}},
		{"ADID 443cdcd7-08bd-4853-a2e1-83598c5bb02c opened the app twice.", []string{PIIDeviceID}},
		{"With tracking off the IDFA reads 00000000-0000-0000-0000-000000000000.", nil},
		{"sha256 b370bcb35d0397cd67a4d71b329fe9f6f4a95c79b0f5b85ce6ec61a6c40385b7 of the release tarball", nil},
		// A US licence beside its word in a text about driving.
		{"The DMV lookup rejected licence D4829173 because our regex expected two letters.", []string{PIIDriverLicence}},
		{"The license key D4829173 unlocks the Pro build.", nil},
		// Korea's 2021 passports, in a text about passports.
		{"신여권은 여권번호가 M123A4567처럼 바뀜. 기존 정규식으로는 M482K7193 같은 번호가 전부 실패.", []string{PIINationalID}},
		// A card is never written after a plus; a birth date under an
		// INSERT's dob column; a sort code told with its account.
		{"ERROR checkout user_id=88120 phone=+49 1523 4817265 region=null", []string{PIIPhone}},
		{"INSERT INTO customers (full_name, ssn, dob) VALUES ('Raymond J. Kowalski', '529-47-1836', '07/19/1979');", []string{PIIBirthDate, PIIUSSSN}},
		{"INSERT INTO releases (name, shipped) VALUES ('v2', '07/19/2021');", nil},
		{"Confirmation of Payee for 'Daniel Whitaker', sort code 20-45-77, account 53981746, returned MBAM.", []string{PIIBankAccount}},
		// -Password, requests' auth tuple, an escaped dollar.
		{"nuget sources add -Name corp -Source https://nuget.corp.local/v3/index.json -Username ci -Password Ng8!qX3wZm5k", []string{PIIPassword}},
		{"Register-PSRepository -Name corp -Credential (Get-Credential) -Password $env:REPO_PW", nil},
		{`resp = requests.get(url, auth=("svc-report", "Lm7#qW2xZp9k"), timeout=30)`, []string{PIIPassword}},
		{`resp = requests.get(url, auth=("svc-report", os.environ["PW"]))`, nil},
		{`docker run -e POSTGRES_PASSWORD=Jm5\$wQ8zLx3n postgres:16`, []string{PIIPassword}},
		{`echo "DB_PASSWORD=\$DB_PASS" >> .env`, nil},
		// National mobiles as people group them, beside a phone's word.
		{`merchant_onboard name="Ali Raza" mobile=0300 4827193 city=Lahore`, []string{PIIPhone}},
		{"Kundin Anna Gruber, Handy 0664 4829173, bittet um Rückruf.", []string{PIIPhone}},
		{"Ticket 8812: Nurul Aisyah (012-482 9167) says the OTP arrives late.", []string{PIIPhone}},
		{"Fatura 2026/118 — cliente João Silva, NIF 248291734, total 84,50 €", []string{PIINationalID}},
		// The same figures without a phone's word, or said to be none, an
		// SSN's form, an invalid Korean mobile.
		{"Shard map 0300 4827193 moved to the new cluster after the resize.", nil},
		{"Gradle build `0532 481 29 36` is not a phone number: the job prints build, stage, shard and attempt.", nil},
		{"Our redaction caught 987-65-4320 but not 987 65 4320 in free-text notes.", nil},
		{"Field error on field 'phone': rejected value [010-4827-39]", nil},
		// No recipient, no postcode: a company's or a map's street.
		{"The office moved to Via Garibaldi 12 last spring; the VPN endpoint did not change.", nil},
		{"Gradle's build 2 of ul. tests ran 84/92 green.", nil},
		// A counting house number on Main Street is documentation's.
		{"customer: 123 Main St, Springfield", nil},
	} {
		if got := DetectPII(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("DetectPII(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}
