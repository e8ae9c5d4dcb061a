package gate

import "regexp"

// piiRules run in order; a match claims its span, so a later rule cannot
// report the same characters again (a token inside a URL is a token, not a
// password; a card's digits are not also a phone number).
var piiRules = []piiRule{
	// A private key's header counts when a key follows it; alone it
	// names a format.
	{kind: PIIPrivateKey, re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`), near: pemBody},
	{kind: PIIPrivateKey, re: rePEMBase64, valid: pemBase64Key, hints: []string{"ls0tls1crudjti"}},
	// A JWK's private members and OpenVPN's static keys.
	{kind: PIISecret, re: reJWK, valid: jwkPrivate, hints: []string{"kty"}},
	{kind: PIISecret, re: reOpenVPNKey, hints: []string{"begin openvpn"}},
	// Push registrations and advertising ids address one device
	// (pii_devices.go), before the secret rules read "token".
	{kind: PIIDeviceID, re: reFCMToken, placeholder: tokenPlaceholder, hints: []string{"apa91b"}},
	{kind: PIIDeviceID, re: reAPNsToken, near: pushTokenNamed, placeholder: tokenPlaceholder, hints: apnsWords},
	{kind: PIIDeviceID, re: reAdvertisingID, placeholder: advertisingPlaceholder, example: exampleValue, hints: []string{"adid", "gaid", "aaid", "idfa", "advertising", "ad_id", "ad id", "ad-id", "광고"}},
	// A passport's machine-readable line, by its three check digits.
	{kind: PIINationalID, re: reMRZLine, valid: validMRZ, placeholder: mrzPlaceholder, example: exampleValue, also: []string{PIIBirthDate}},
	{kind: PIINationalID, re: reMRZNameLine, valid: validMRZName, placeholder: mrzNamePlaceholder, example: exampleValue},
	{kind: PIINationalID, re: reMRZLineTD1, valid: validMRZTD1, placeholder: mrzTD1Placeholder, example: exampleValue, also: []string{PIIBirthDate}},
	{kind: PIIAWSKey, re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}\b`), placeholder: awsPlaceholder},
	{kind: PIIAWSSecret, re: regexp.MustCompile(`(?i)aws_?secret_?(?:access_?)?key["']?(?:\s*[:=]\s*|[ \t]+)["']?[A-Za-z0-9/+]{40}\b`), placeholder: awsPlaceholder},
	{kind: PIIGoogleAPIKey, re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), placeholder: tokenPlaceholder},
	{kind: PIIGitHubToken, re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b`), placeholder: tokenPlaceholder},
	{kind: PIISlackToken, re: regexp.MustCompile(`\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{20,}`), placeholder: slackPlaceholder},
	{kind: PIISlackWebhook, re: regexp.MustCompile(`hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,}`), placeholder: slackWebhookPlaceholder},
	{kind: PIIStripeKey, re: regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b|\bwhsec_[A-Za-z0-9]{24,}\b`), placeholder: stripePlaceholder},
	{kind: PIIOpenAIKey, re: regexp.MustCompile(`\bsk-(?:proj-|ant-(?:api\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`), placeholder: tokenPlaceholder},
	{kind: PIIAPIToken, re: reVendorToken, placeholder: vendorTokenPlaceholder, hints: vendorTokenHints},
	{kind: PIIAPIToken, re: reVendorTokenMore, placeholder: vendorTokenMorePlaceholder, hints: vendorTokenMoreHints, may: vendorTokenMoreMay},
	{kind: PIIJWT, re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`), placeholder: jwtPlaceholder},
	{kind: PIIAzureKey, re: regexp.MustCompile(`(?i)\b(?:AccountKey|SharedAccessKey)\s*=\s*[A-Za-z0-9+/]{20,}={0,2}`), placeholder: azurePlaceholder},
	{kind: PIIAzureSAS, re: regexp.MustCompile(`\bsv=\d{4}-\d\d-\d\d&[^\s"'<>]*?\bsig=[A-Za-z0-9%+/]{20,}|\bsig=[A-Za-z0-9%+/]{20,}[^\s"'<>]*?&sv=\d{4}`), placeholder: tokenPlaceholder},
	// Sentry's DSNs: the legacy form's secret key is a secret; a public key
	// alone ships in clients by design (pii_keyfiles.go) and passes.
	{kind: PIISecret, re: reSentrySecretDSN, hints: []string{"://"}},
	{kind: PIISecret, re: reSentryPublicDSN, near: sentryDSNNamed, placeholder: standalone, hints: []string{"://"}},
	// A key as a URL's whole userinfo (another service's token at
	// https://<key>@host/1) is a secret, not a mail address.
	{kind: PIISecret, re: regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://(?:[0-9a-f]{32}|[A-Za-z0-9_-]{32,})@[^\s/?#"'<>]+`), placeholder: tokenPlaceholder},
	{kind: PIISecret, re: reUserinfoToken, valid: mixedCaseToken, placeholder: tokenPlaceholder, hints: []string{"://"}},
	// An incoming webhook's token in its path (pii_carriers.go).
	{kind: PIISecret, re: reHookURL, valid: hookToken, hints: []string{"hook"}},
	// A key in a URL's query (OpenWeather's appid=, api_key=, access_token=).
	{kind: PIISecret, re: reQuerySecret, placeholder: secretValuePlaceholder, hints: []string{"?", "&"}},
	{kind: PIIPassword, re: reAppPassword, placeholder: appPasswordPlaceholder, hints: []string{"app"}},
	{kind: PIISecret, re: reGCPKeyID, near: keyIDAlone, placeholder: tokenPlaceholder, hints: []string{"private_key_id"}},
	{kind: PIIPassword, re: reSQLInsert, valid: sqlInsertPassword, hints: []string{"insert"}},
	{kind: PIIPassword, re: reWrappedPassword, placeholder: secretPlaceholder, hints: []string{`value`}},
	// Passwords: a URL's userinfo, a Go MySQL DSN, key=value and key: value
	// settings. Values that are templates, masks or placeholder words pass.
	{kind: PIIPassword, re: regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@"'<>]*:[^\s/?@"'<>]+@[^\s/?#"'<>]+`), placeholder: urlPasswordPlaceholder},
	{kind: PIIPassword, re: regexp.MustCompile(`\b[\w.-]+:[^\s:@/"'<>]+@(?:tcp|unix)\(`), placeholder: urlPasswordPlaceholder},
	// A shell's escaped dollar (POSTGRES_PASSWORD=Jm5\$wQ8z) is part of
	// the value, not its end; a value that opens with one is a variable.
	{kind: PIIPassword, re: regexp.MustCompile(`(?i)\b[\w.]*(?:password|passwd|pwd|_pass)` + assignSep + `(?:&[^\s"'<>,;&)\\]+|[^\s"'<>,;&)\\](?:\\\$|[^\s"'<>,;&)\\])*)`), placeholder: settingPasswordPlaceholder},
	{kind: PIIPassword, re: regexp.MustCompile(`\b(?:mysql(?:dump|admin|import|check|sh|binlog|pump)?|mariadb(?:-?dump|-?admin|-?import|-?check)?)\b[^\n]*?\s-p'?[^\s']{4,}`), placeholder: settingPasswordPlaceholder},
	// Names and values that stand apart, credential files and prose.
	{kind: PIIPassword, re: rePair, valid: pairPassword, placeholder: secretPlaceholder, hints: pairHints},
	{kind: PIISecret, re: rePair, valid: pairSecret, placeholder: secretValuePlaceholder, hints: pairHints},
	{kind: PIIPassword, re: rePlistSecret, valid: plistPassword, placeholder: secretPlaceholder, hints: plistHints},
	{kind: PIISecret, re: rePlistSecret, valid: plistSecret, placeholder: secretValuePlaceholder, hints: plistHints},
	{kind: PIIPassword, re: reDockerAuth, valid: dockerAuth, placeholder: dockerAuthPlaceholder, hints: []string{`"auth"`, "_auth"}},
	{kind: PIIPassword, re: rePgpass, placeholder: secretPlaceholder, hints: []string{"pgpass"}},
	{kind: PIIPassword, re: reProsePassword, placeholder: prosePlaceholder, hints: prosePasswordHints},
	{kind: PIIPassword, re: reAccountPair, valid: accountPassword, placeholder: prosePlaceholder, hints: accountPairHints},
	{kind: PIIPassword, re: reAuthUserPass, valid: authUserPassLogin, near: authUserPassNamed, placeholder: secretPlaceholder, hints: []string{"auth-user-pass"}},
	{kind: PIIPassword, re: reAuthUserPassNote, near: authUserPassFile, placeholder: secretPlaceholder, hints: []string{"auth-user-pass"}},
	// Passwords given to a command on its command line.
	{kind: PIIPassword, re: reCLIPassword, placeholder: secretPlaceholder, hints: cliPasswordHints, may: cliPasswordMay},
	{kind: PIIPassword, re: reCLIPasswordMore, placeholder: secretPlaceholder, hints: cliPasswordMoreHints},
	{kind: PIIPassword, re: reHtpasswd, placeholder: tokenPlaceholder, hints: htpasswdHints},
	// A session cookie's value.
	{kind: PIISecret, re: reCookieSecret, placeholder: secretValuePlaceholder, hints: cookieHints},
	{kind: PIISecret, re: reCookiesTxt, valid: cookiesTxtSession, placeholder: secretValuePlaceholder, hints: []string{"\ttrue\t", "\tfalse\t"}},
	// Secret-looking values assigned to secret names.
	{kind: PIISecret, re: reQuotedSecret, valid: secretName, placeholder: quotedSecretPlaceholder, named: true, hints: []string{"secret", "token", "key"}},
	{kind: PIISecret, re: reSecretAssignment, valid: secretName, placeholder: secretValuePlaceholder, named: true, hints: []string{"secret", "token", "key", "authorization"}},
	{kind: PIIEmail, re: regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\b`), valid: mailAddress, near: notRemoteTarget, placeholder: emailPlaceholder},
	{kind: PIIEmail, re: reObfuscatedEmail, placeholder: obfuscatedEmailPlaceholder, hints: []string{"at]", "at)"}},
	{kind: PIIEmail, re: reEncodedEmail, placeholder: encodedEmailPlaceholder, hints: []string{"%40"}},
	{kind: PIIIBAN, re: regexp.MustCompile(`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b`), valid: validIBAN, placeholder: ibanPlaceholder, example: exampleIBAN},
	{kind: PIIBankAccount, re: reBankField, near: bankNamed, placeholder: bankPlaceholder, hints: bankFieldHints},
	{kind: PIIBankAccount, re: reSortCodeProse, placeholder: bankPlaceholder, example: exampleValue, hints: []string{"sort"}},
	{kind: PIIBankAccount, re: reRoutingProse, valid: validABA, near: accountNear, placeholder: bankPlaceholder, example: exampleValue, hints: []string{"routing", "aba"}},
	{kind: PIIBankAccount, re: reNACHAEntry, valid: nachaEntry, near: nachaLine, placeholder: bankPlaceholder, digits: true},
	{kind: PIIBankAccount, re: reColumnNumber, near: bankColumn, placeholder: bankPlaceholder, hints: []string{"account", "acct", "sort", "routing", "bsb"}, digits: true},
	{kind: PIIBankAccount, re: reKRBankAccount, valid: krAccountDigits, placeholder: bankPlaceholder, hints: []string{"계좌"}},
	{kind: PIIBankAccount, re: reBareAccount, valid: krAccountDigits, near: bankNamed, placeholder: bankPlaceholder, hints: []string{"acc"}},
	{kind: PIIBankAccount, re: reKRBankNamed, valid: krBankNumber, placeholder: bankPlaceholder, example: exampleValue, hints: krBankHints},
	{kind: PIIKoreanRRN, re: regexp.MustCompile(`\b\d{6}[- ]?[1-8]\d{6}\b`), valid: validRRN, placeholder: rrnPlaceholder, digits: true},
	{kind: PIIUSSSN, re: regexp.MustCompile(`\b\d{3}-\d{2}-\d{4}\b|\b\d{3} \d{2} \d{4}\b`), valid: validSSN, placeholder: ssnPlaceholder, example: exampleSSN, digits: true},
	{kind: PIIUSSSN, re: reSSNDigits, valid: validSSNDigits, near: ssnNamed, placeholder: ssnPlaceholder, example: exampleSSN, digits: true},
	{kind: PIINationalID, re: reCPF, valid: validCPF, placeholder: idPlaceholder, example: sampleID},
	{kind: PIINationalID, re: reCPF, valid: issuedCPF, near: cpfNamed, placeholder: idPlaceholder, example: personalExempt},
	{kind: PIINationalID, re: rePassportNo, valid: validPassportNo, near: passportNamed, placeholder: passportPlaceholder, example: personalExempt},
	{kind: PIINationalID, re: reChinaID, valid: validChinaID, placeholder: idPlaceholder},
	{kind: PIINationalID, re: reChinaID, near: chinaIDNamed, placeholder: idPlaceholder},
	{kind: PIINationalID, re: reNINO, valid: validNINO, near: ninoNamedFar},
	{kind: PIINationalID, re: reNINO, valid: validNINO, lineNear: ninoRecord, example: personalExempt},
	{kind: PIINationalID, re: reHMRCExample, placeholder: standalone},
	{kind: PIIDriverLicence, re: reDVLALicence, valid: validDVLALicence, near: licenceNamedFarUK, example: exampleValue},
	{kind: PIIDriverLicence, re: reKRDriverLicence, near: krLicenceNamed, example: exampleValue, digits: true},
	{kind: PIIDriverLicence, re: reKRLicenceRegion, near: krLicenceNamed, example: exampleValue},
	{kind: PIIDriverLicence, re: reUSLicence, near: usLicenceNamed, placeholder: idPlaceholder, example: exampleValue, hints: []string{"licen", "dl"}},
	{kind: PIINationalID, re: reDNI, valid: validDNI, near: dniNamed, placeholder: idPlaceholder},
	// Before cards: an IMEI passes Luhn's check too.
	{kind: PIIDeviceID, re: reGSMAExampleIMEI, placeholder: standalone},
	{kind: PIIDeviceID, re: reIMEI, valid: validIMEI, near: imeiNamed, placeholder: imeiPlaceholder, example: exampleValue, digits: true},
	{kind: PIINationalID, re: reSINField, placeholder: idPlaceholder, example: exampleOrSample, hints: []string{"sin", "social"}},
	{kind: PIINationalID, re: reNineDigits, valid: validSIN, near: sinNamed, placeholder: idPlaceholder, example: exampleOrSample, digits: true},
	{kind: PIINationalID, re: reNineDigits, valid: validTFN, near: tfnNamed, placeholder: idPlaceholder, example: exampleValue, digits: true},
	{kind: PIINationalID, re: reNineDigits, valid: validBSN, near: bsnNamed, placeholder: idPlaceholder, example: exampleValue, digits: true},
	{kind: PIINationalID, re: reNineDigits, valid: validPortugueseNIF, near: nifNamed, placeholder: idPlaceholder, example: exampleValue, digits: true},
	{kind: PIINationalID, re: reNRIC, valid: validNRIC, near: nricNamed, placeholder: idPlaceholder, example: exampleValue},
	{kind: PIINationalID, re: reCodiceFiscale, valid: validCodiceFiscale, placeholder: idPlaceholder, example: exampleValue},
	{kind: PIINationalID, re: rePAN, near: panNamed, example: exampleValue},
	{kind: PIIVehicleID, re: reVIN, valid: validVIN, near: vinNamed, example: exampleValue},
	{kind: PIICard, re: regexp.MustCompile(`\b\d(?:[ -]?\d){12,18}\b`), valid: validCard, near: cardNear, placeholder: cardPlaceholder, digits: true},
	// After cards: the first twelve digits of a card are not an Aadhaar.
	{kind: PIINationalID, re: reAadhaar, valid: validAadhaar, placeholder: idPlaceholder, digits: true},
	{kind: PIINationalID, re: reAadhaarRun, valid: validAadhaar, near: aadhaarNear, placeholder: idPlaceholder, example: exampleOrSample, digits: true},
	{kind: PIIPhone, re: regexp.MustCompile(`\+\d{1,3}(?:[ .-]?\(?\d{1,4}\)?){2,5}\b`), valid: validIntlPhone, placeholder: phonePlaceholder, example: examplePhone},
	{kind: PIIPhone, re: regexp.MustCompile(`\b01[016789][ .-]?\d{3,4}[ .-]?\d{4}\b`), valid: validKRMobile, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	{kind: PIIPhone, re: regexp.MustCompile(`\b0(?:2|[3-6][1-5]|70)[ .-]\d{3,4}[ .-]\d{4}\b|\(0(?:2|[3-6][1-5])\) ?\d{3,4}-\d{4}\b`), valid: standalone, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	{kind: PIIPhone, re: regexp.MustCompile(`(?:\(\d{3}\) ?|\b\d{3}[ .-])\d{3}[ .-]\d{4}\b`), valid: validNANP, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	// Other countries' national formats, written as people write them.
	{kind: PIIPhone, re: reForeignPhone, valid: validForeignPhone, near: notPhoneDenied, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	{kind: PIIPhone, re: reContextPhone, near: phoneNamed, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	{kind: PIIPhone, re: reNationalPhone, valid: validNationalPhone, near: phoneNamedWide, placeholder: phonePlaceholder, example: examplePhone, digits: true},
	// Plates, dates of birth and addresses, beside their words or in their
	// forms.
	{kind: PIIPlate, re: rePlate, valid: validPlate, near: plateNamedFar, example: personalExempt},
	{kind: PIIBirthDate, re: reHL7PID, valid: hl7Patient, hints: []string{"pid|"}},
	{kind: PIIBirthDate, re: reColumnDate, near: birthColumn, placeholder: birthPlaceholder, example: personalExempt, hints: birthHints},
	{kind: PIIBirthDate, re: reBirthDate, placeholder: birthPlaceholder, example: personalExempt, hints: birthHints},
	// Health data beside its patient (pii_health.go).
	{kind: PIIHealth, re: reHealthField, valid: healthValue, near: patientNear, hints: healthHints},
	{kind: PIIHealth, re: reHealthColumns, near: healthRowsNear, hints: healthHints},
	{kind: PIIHealth, re: reHealthProse, near: healthTold, hints: healthToldWords},
	{kind: PIIAddress, re: reAddress, near: addressNamedWide, placeholder: addressPlaceholder, example: personalExempt, hints: addressHints},
	{kind: PIIAddress, re: reJPAddress, near: jpAddressNamed, example: personalExempt, hints: []string{"都", "道", "府", "県"}},
	// A home's or a user's coordinates (pii_location.go).
	{kind: PIILocation, re: reHomeCoords, valid: validCoords, example: exampleValue, hints: []string{"lat", "coord", "loc", "position", "geo", "좌표", "위치"}},
	{kind: PIILocation, re: reCoordPair, valid: validCoordPair, near: coordsHolder, example: exampleValue},
	// A person's machine and a person's own address (pii_devices.go).
	{kind: PIIDeviceID, re: reMAC, valid: validMAC, near: personalMachine, example: exampleValue},
	{kind: PIIDeviceID, re: reDeviceSerial, valid: validSerial, near: personalMachine, example: exampleValue, hints: []string{"serial", "시리얼", "s/n"}},
	{kind: PIIIPAddress, re: reSSHAccepted, valid: sshLoginIP, hints: []string{"accepted "}},
	{kind: PIIIPAddress, re: reHostIPv4Host, valid: homeIP, lineNear: loginLineUser, example: exampleValue, hints: loginHints},
	{kind: PIIIPAddress, re: reHostIPv4Host, valid: homeIP, lineNear: homeIPNamed, example: exampleValue, hints: homeIPHints},
	// Last: a number in Aadhaar's form in a text naming it, whatever its check.
	{kind: PIINationalID, re: reAadhaar, near: aadhaarNamed, placeholder: idPlaceholder, digits: true},
}
