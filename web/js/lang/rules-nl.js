// De volledige spelregels per spelvorm, in het Nederlands: een lijst van [kop, alinea's].
// Drie woorden voor drie dingen: het spel (wat je in de lobby maakt), de hand (één keer
// delen) en de partij (handen tot iemand het doel of de grens haalt); een kaartspel is een
// pak kaarten.
export default {
  classic: [
    ["Kaarten", ["Twee spelers krijgen elk 10 kaarten uit een kaartspel van 52 zonder jokers. Eén kaart ligt open als begin van de aflegstapel; de rest is de trekstapel."]],
    ["Combinaties", ["Een set is 3 of 4 kaarten van dezelfde waarde. Een reeks is minstens 3 opeenvolgende kaarten van dezelfde kleur. De aas is laag: A–2–3 mag, Q–K–A niet, en niets loopt rond."]],
    ["Je beurt", ["Trek één kaart: de bovenste van de trekstapel of de bovenste aflegkaart.", "Leg daarna zoveel combinaties uit als je wilt (druk op «Uitleggen») en leg kaarten aan bij elke open combinatie, ook die van de tegenstander en ook vóór je eigen eerste combinatie. Kaarten op tafel worden nooit herschikt.", "Eindig door één kaart af te leggen. De kaart die je net van de aflegstapel pakte, mag niet meteen terug; je mag haar wel uitleggen of aanleggen."]],
    ["Uitgaan en punten", ["De hand eindigt zodra iemand geen kaarten meer heeft, door uitleggen, aanleggen of afleggen. De winnaar krijgt de waarde van alle kaarten die de ander nog heeft, ook ongespeelde combinaties: aas 1, boer/vrouw/heer 10, de andere hun getal. Geen knock, gin of dubbele bonus.", "De score loopt door; wie na een hand 100 of meer heeft, wint de partij. De deler wisselt elke hand."]],
    ["Lege trekstapel", ["Wil je trekken en is de trekstapel leeg, dan worden de aflegkaarten onder de bovenste geschud tot nieuwe trekstapel. Is die bovenste kaart het enige wat er nog is, dan pak je haar. Is er niets meer, dan is de hand remise. Na 200 volledige beurten is de hand remise zonder punten."]],
    ["Tips", ["Bekijk vóór het afleggen beide uiteinden van de reeksen op tafel. Ook complete combinaties in je hand leveren de tegenstander punten op als die eerder uitgaat: leg ze op tijd uit."]],
    ["Samen spelen", ["«Volgende hand» deelt opnieuw en bewaart de score; «Partij opnieuw beginnen» begint de partij opnieuw bij 0–0. Online moeten beide spelers instemmen. Op één apparaat verschijnt vóór elke hand een scherm om het apparaat door te geven."]],
  ],
  basic: [
    ["Kaarten", ["2 tot 4 spelers, één kaartspel van 52 zonder jokers. Met 2 spelers 10 kaarten elk, met 3 of 4 spelers 7. Eén kaart open begint de aflegstapel."]],
    ["Combinaties", ["Sets van 3 of 4 gelijke waarden en reeksen van minstens 3 opeenvolgende kaarten van één kleur. De aas is laag."]],
    ["Je beurt", ["Trek een kaart van de trekstapel of de aflegstapel, leg combinaties uit en leg aan waar je wilt (ook vóór je eerste combinatie), en leg één kaart af. Een net gepakte aflegkaart mag niet meteen terug."]],
    ["Uitgaan", ["Je gaat uit door al je kaarten uit te leggen of aan te leggen, of door je laatste kaart af te leggen. De winnaar krijgt de waarde van de kaarten van alle anderen: aas 1, plaatjes 10, de rest hun getal.", "Rummy gaan: wie in deze hand nog niets had uitgelegd of aangelegd en in één beurt al zijn kaarten kwijtraakt, krijgt dubbele punten."]],
    ["Trekstapel op", ["De eerste keer dat de trekstapel op is, wordt de hele aflegstapel geschud tot nieuwe trekstapel. De tweede keer eindigt de hand in een patstelling zonder punten. Ook als niemand zijn hand nog kan leegspelen, is het pat."]],
    ["Partij", ["Doel: 100 punten met 2 spelers, 150 met 3, 200 met 4."]],
  ],
  rummy51: [
    ["Kaarten", ["2 tot 4 spelers, twee kaartspellen van 52 plus 2 jokers (106 kaarten), 13 kaarten elk. Eén kaart open begint de aflegstapel."]],
    ["Combinaties", ["Een set is 3 of 4 kaarten van dezelfde waarde in verschillende kleuren. Een reeks is minstens 3 opeenvolgende kaarten van één kleur; de aas mag laag (A–2–3) of hoog (Q–K–A), maar niet rond (K–A–2). Een joker vervangt elke kaart; elke combinatie heeft minstens één echte kaart."]],
    ["Openen met 51", ["Je eerste uitleg moet samen minstens 51 punten waard zijn; je mag er meerdere combinaties voor combineren. Waarden: 2–10 hun getal, boer/vrouw/heer/aas 10, een joker de kaart die hij vervangt. Vóór het openen mag je niet aanleggen en geen joker ruilen."]],
    ["Bouwen en jokers", ["Na het openen leg je aan bij elke combinatie. Heb je de echte kaart waar een joker in een reeks voor staat, dan mag je die ruilen en de joker nemen. Een set van drie met een joker geeft de joker vrij als je beide ontbrekende kleuren aanlegt. Een vrijgekomen joker moet je in dezelfde beurt weer uitspelen."]],
    ["Uitgaan", ["Je moet uitgaan met een aflegkaart. Rummy gaan: wie nog niets had uitgelegd en in één beurt alles op één kaart na uitlegt (zonder aan te leggen) en de laatste aflegt, hoeft geen 51 te halen; de anderen krijgen 25 extra strafpunten."]],
    ["Strafpunten", ["Wie niet uitging, telt de eigen kaarten als strafpunten: 2–10 hun getal, plaatjes 10, aas 11, joker 25. Na de hand waarin iemand de grens van de kamer (101, 201 of 301) haalt, eindigt de partij; de laagste stand wint."]],
  ],
};
