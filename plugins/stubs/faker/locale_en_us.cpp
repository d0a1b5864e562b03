// en_US: names, streets, cities and formats of the United States.
#include "locale.hpp"

namespace sbx_faker {
namespace {

using std::string_view;

constexpr string_view kFirstNames[] = {
    "James",  "Mary",     "Robert",  "Patricia", "John",    "Jennifer", "Michael", "Linda",
    "David",  "Susan",    "William", "Jessica",  "Richard", "Sarah",    "Joseph",  "Karen",
    "Thomas", "Nancy",    "Charles", "Lisa",     "Daniel",  "Emily",    "Matthew", "Ashley",
    "Andrew", "Michelle", "Joshua",  "Amanda",   "Kevin",   "Melissa",  "Brian",   "Laura",
    "Carlos", "Maria",    "Wei",     "Aisha",    "Darnell", "Priya",    "Tyler",   "Olivia"};

constexpr string_view kLastNames[] = {
    "Smith",     "Johnson",  "Williams",  "Brown",   "Jones",    "Garcia",   "Miller",   "Davis",
    "Rodriguez", "Martinez", "Hernandez", "Lopez",   "Gonzalez", "Wilson",   "Anderson", "Thomas",
    "Taylor",    "Moore",    "Jackson",   "Martin",  "Lee",      "Perez",    "Thompson", "White",
    "Harris",    "Sanchez",  "Clark",     "Ramirez", "Lewis",    "Robinson", "Walker",   "Young",
    "Allen",     "King",     "Wright",    "Scott",   "Nguyen",   "Hill",     "Flores",   "Green"};

constexpr string_view kStreetNames[] = {
    "Oak",    "Maple",  "Cedar",   "Pine",    "Elm",      "Washington", "Lake",   "Hill",
    "Park",   "Main",   "Lincoln", "Jackson", "Highland", "Sunset",     "Willow", "Ridge",
    "Church", "Spring", "Meadow",  "River",   "Franklin", "Chestnut",   "Walnut", "Forest"};

constexpr string_view kStreetSuffixes[] = {"Street", "Avenue", "Road",  "Boulevard", "Lane",
                                           "Drive",  "Court",  "Place", "Way",       "Terrace"};

constexpr string_view kCities[] = {
    "New York",    "Los Angeles",  "Chicago",   "Houston",     "Phoenix",      "Philadelphia",
    "San Antonio", "San Diego",    "Dallas",    "Austin",      "Jacksonville", "Columbus",
    "Charlotte",   "Indianapolis", "Seattle",   "Denver",      "Boston",       "Nashville",
    "Portland",    "Las Vegas",    "Milwaukee", "Albuquerque", "Tucson",       "Sacramento",
    "Kansas City", "Atlanta",      "Omaha",     "Raleigh",     "Minneapolis",  "Cleveland"};

constexpr string_view kStates[] = {"AL", "AZ", "CA", "CO", "CT", "FL", "GA", "IL", "IN", "MA",
                                   "MD", "MI", "MN", "MO", "NC", "NJ", "NM", "NV", "NY", "OH",
                                   "OR", "PA", "TN", "TX", "UT", "VA", "WA", "WI"};

constexpr string_view kCountries[] = {
    "United States", "Canada", "Mexico",      "United Kingdom", "Germany", "France",     "Spain",
    "Italy",         "Japan",  "South Korea", "India",          "Brazil",  "Australia",  "Ireland",
    "Netherlands",   "Sweden", "Argentina",   "Nigeria",        "Kenya",   "New Zealand"};

constexpr string_view kPhoneFormats[] = {"(%##) %##-####", "%##-%##-####", "+1 %##-%##-####",
                                         "%##.%##.####"};

constexpr string_view kCompanyFormats[] = {"{last} {company_suffix}", "{last}, {last} and {last}",
                                           "{last}-{last}", "{last} {company_suffix}"};

constexpr string_view kCompanySuffixes[] = {"Inc.", "LLC", "Group", "Ltd.", "and Sons", "Corp."};

constexpr string_view kEmailDomains[] = {"example.com", "example.org", "example.net"};

constexpr string_view kUrlPaths[] = {"about",   "products", "blog", "contact", "pricing",
                                     "careers", "support",  "news", "team",    "services"};

constexpr string_view kWords[] = {"account", "answer",   "basket",  "bridge",  "candle",  "coffee",
                                  "garden",  "harbor",   "island",  "journey", "kitchen", "letter",
                                  "market",  "meadow",   "morning", "number",  "orange",  "pencil",
                                  "planet",  "question", "river",   "school",  "signal",  "summer",
                                  "ticket",  "travel",   "valley",  "window",  "winter",  "yellow"};

constexpr string_view kDirectories[] = {"data", "documents", "reports", "uploads", "exports"};

constexpr string_view kFileStems[] = {"report", "invoice", "notes",    "summary",
                                      "export", "budget",  "contacts", "schedule"};

constexpr Locale kEnUs{"en_US",
                       kFirstNames,
                       kLastNames,
                       kStreetNames,
                       kStreetSuffixes,
                       "{building} {street_name} {street_suffix}",
                       9999,
                       kCities,
                       kStates,
                       kCountries,
                       "{street}, {city}, {state} {postcode}",
                       501,
                       99950,
                       kPhoneFormats,
                       kCompanyFormats,
                       kCompanySuffixes,
                       kEmailDomains,
                       kUrlPaths,
                       kWords,
                       kDirectories,
                       kFileStems};

}  // namespace

const Locale &en_us() {
    return kEnUs;
}

}  // namespace sbx_faker
