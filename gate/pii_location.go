package gate

import (
	"regexp"
	"strconv"
)

// PIILocation is where a person lives or is: a home's or a user's
// coordinates.
const PIILocation = "location"

// reHomeCoords is a pair of coordinates, to four decimals or more (about
// ten metres), under a field that says whose place it is: a home's, a
// user's, a customer's or a member's (homeLocation: {lat: …, lng: …},
// home_lat=…, "userLocation": [lat, lng], 자택 좌표). A store's, a
// depot's or a map's centre names no one.
var reHomeCoords = regexp.MustCompile(`(?i)(?:home|user|customer|member|my|자택|집)[_-]?(?:location|loc|coords?|coordinates|position|geo|lat(?:itude)?|좌표|위치)["']?\s*[:=]\s*[{\[(]?\s*(?:["']?lat(?:itude)?["']?\s*[:=]\s*)?(-?\d{1,2}\.\d{4,})\s*,\s*(?:["']?(?:home[_-]?)?(?:lng|lon|long|longitude)["']?\s*[:=]\s*)?(-?\d{1,3}\.\d{4,})`)

// validCoords asks for a latitude and a longitude in range, and not the
// null island (0, 0).
func validCoords(m string) bool {
	g := reHomeCoords.FindStringSubmatch(m)
	lat, err1 := strconv.ParseFloat(g[1], 64)
	lng, err2 := strconv.ParseFloat(g[2], 64)
	return err1 == nil && err2 == nil && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 && (lat != 0 || lng != 0)
}

// reCoordPair is a latitude and a longitude as a record's two fields
// ("lat": 40.741895, "lng": -73.989308; lat=…&lon=…), whoever's they are.
var reCoordPair = regexp.MustCompile(`(?i)["']?\blat(?:itude)?["']?\s*[:=]\s*["']?(-?\d{1,2}\.\d{4,})["']?\s*[,&]\s*["']?(?:lng|lon|long|longitude)["']?\s*[:=]\s*["']?(-?\d{1,3}\.\d{4,})`)

func validCoordPair(m string) bool {
	g := reCoordPair.FindStringSubmatch(m)
	lat, err1 := strconv.ParseFloat(g[1], 64)
	lng, err2 := strconv.ParseFloat(g[2], 64)
	return err1 == nil && err2 == nil && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 && (lat != 0 || lng != 0)
}

// coordsHolder passes a coordinate pair in a record that names the
// person it places: a name field on its line (an analytics event's
// "name": "Ethan Clark") or an owner in its sentence. A store's or a
// sensor's coordinates stand beside no one.
func coordsHolder(text string, lo, hi int) bool { return holderNear(text, lo, hi) }
