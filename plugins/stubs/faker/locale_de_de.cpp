// de_DE: names, streets, cities and formats of Germany (UTF-8: umlauts and ß stay as
// they are in values; emails, usernames, URLs and paths transliterate them to ASCII).
#include "locale.hpp"

namespace sbx_faker {
namespace {

using std::string_view;

constexpr string_view kFirstNames[] = {
    "Anna",   "Lukas",  "Mia",     "Leon",    "Emma",      "Finn",       "Hannah", "Jonas",
    "Sophie", "Paul",   "Lea",     "Felix",   "Marie",     "Maximilian", "Lena",   "Elias",
    "Clara",  "Noah",   "Johanna", "Moritz",  "Katharina", "Jürgen",     "Sabine", "Günter",
    "Ursula", "Stefan", "Petra",   "Andreas", "Monika",    "Thomas",     "Jörg",   "Büşra",
    "Mehmet", "Zoë",    "Björn",   "Anja",    "Torsten",   "Ingrid",     "Kai",    "Greta"};

constexpr string_view kLastNames[] = {
    "Müller",   "Schmidt",  "Schneider", "Fischer",    "Weber",  "Meyer",   "Wagner",  "Becker",
    "Schulz",   "Hoffmann", "Schäfer",   "Koch",       "Bauer",  "Richter", "Klein",   "Wolf",
    "Schröder", "Neumann",  "Schwarz",   "Zimmermann", "Braun",  "Krüger",  "Hofmann", "Hartmann",
    "Lange",    "Schmitt",  "Werner",    "Schmitz",    "Krause", "Meier",   "Lehmann", "Schmid",
    "Köhler",   "Maier",    "Jäger",     "Groß",       "Yılmaz", "Öztürk",  "Weiß",    "Vogel"};

// Street names are compounds: a stem and a suffix without a space ("Lindenallee").
constexpr string_view kStreetNames[] = {
    "Haupt", "Bahnhof", "Garten", "Schiller", "Goethe", "Linden", "Kirch",  "Berg",
    "Wald",  "Mühlen",  "Schul",  "Dorf",     "Birken", "Rosen",  "Eichen", "Feld",
    "Ring",  "Sonnen",  "Wiesen", "Friedhof", "Markt",  "Burg",   "Tannen", "Kastanien"};

constexpr string_view kStreetSuffixes[] = {"straße", "weg", "allee", "gasse", "platz", "ring"};

constexpr string_view kCities[] = {
    "Berlin",    "Hamburg",    "München",   "Köln",      "Frankfurt am Main",
    "Stuttgart", "Düsseldorf", "Leipzig",   "Dortmund",  "Essen",
    "Bremen",    "Dresden",    "Hannover",  "Nürnberg",  "Duisburg",
    "Bochum",    "Wuppertal",  "Bielefeld", "Bonn",      "Münster",
    "Mannheim",  "Karlsruhe",  "Augsburg",  "Wiesbaden", "Freiburg im Breisgau",
    "Lübeck",    "Göttingen",  "Rostock",   "Erfurt",    "Würzburg"};

constexpr string_view kStates[] = {"Baden-Württemberg",
                                   "Bayern",
                                   "Berlin",
                                   "Brandenburg",
                                   "Bremen",
                                   "Hamburg",
                                   "Hessen",
                                   "Mecklenburg-Vorpommern",
                                   "Niedersachsen",
                                   "Nordrhein-Westfalen",
                                   "Rheinland-Pfalz",
                                   "Saarland",
                                   "Sachsen",
                                   "Sachsen-Anhalt",
                                   "Schleswig-Holstein",
                                   "Thüringen"};

constexpr string_view kCountries[] = {
    "Deutschland", "Österreich", "Schweiz",      "Frankreich",
    "Italien",     "Spanien",    "Niederlande",  "Belgien",
    "Polen",       "Tschechien", "Dänemark",     "Schweden",
    "Norwegen",    "Türkei",     "Griechenland", "Vereinigte Staaten",
    "Japan",       "Brasilien",  "Kanada",       "Vereinigtes Königreich"};

constexpr string_view kPhoneFormats[] = {"0%## #######", "+49 %## #######", "015# ########",
                                         "+49 (0)%# ########"};

constexpr string_view kCompanyFormats[] = {"{last} {company_suffix}",
                                           "{last} & {last} {company_suffix}",
                                           "{last} {company_suffix}", "{last}-{last} AG"};

constexpr string_view kCompanySuffixes[] = {"GmbH", "AG", "KG", "GmbH & Co. KG", "OHG", "e.V."};

constexpr string_view kEmailDomains[] = {"example.com", "example.org", "example.net",
                                         "beispiel.example"};

constexpr string_view kUrlPaths[] = {"ueber-uns", "produkte", "blog",      "kontakt", "preise",
                                     "karriere",  "hilfe",    "aktuelles", "team",    "impressum"};

constexpr string_view kWords[] = {"Apfel",  "Brücke",   "Fenster", "Garten",  "Haus",    "Insel",
                                  "Kaffee", "Küche",    "Lampe",   "Straße",  "Märchen", "Nacht",
                                  "Papier", "Quelle",   "Reise",   "Schule",  "Sommer",  "Tür",
                                  "Uhr",    "Vogel",    "Wasser",  "Zeitung", "Blume",   "Fahrrad",
                                  "Größe",  "Frühling", "Berg",    "Brief",   "Wiese",   "Himmel"};

constexpr string_view kDirectories[] = {"daten", "dokumente", "berichte", "uploads", "exporte"};

constexpr string_view kFileStems[] = {"bericht", "rechnung", "notizen",  "zusammenfassung",
                                      "export",  "budget",   "kontakte", "termine"};

constexpr Locale kDeDe{"de_DE",
                       kFirstNames,
                       kLastNames,
                       kStreetNames,
                       kStreetSuffixes,
                       "{street_name}{street_suffix} {building}",
                       199,
                       kCities,
                       kStates,
                       kCountries,
                       "{street}, {postcode} {city}",
                       1067,
                       99998,
                       kPhoneFormats,
                       kCompanyFormats,
                       kCompanySuffixes,
                       kEmailDomains,
                       kUrlPaths,
                       kWords,
                       kDirectories,
                       kFileStems};

}  // namespace

const Locale &de_de() {
    return kDeDe;
}

}  // namespace sbx_faker
