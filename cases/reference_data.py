"""The reference data the system starts with: pollutant categories (§ 132-3,
R-DEF-1), exempt discharges (§ 132-6 A(1), R-PRO-2) and the citation table.

Staff edit these rows afterwards. `ensure_reference_data` runs after every migrate
(and after a test database is flushed) and creates only the rows that are missing,
so it never overwrites a staff edit."""

POLLUTANTS = [
    # code, name, plain words for residents, hazardous
    (
        "sewage",
        "Treated or untreated sewage",
        "Sewage or toilet waste (smell of sewage, grey water)",
        False,
    ),
    (
        "wash-water",
        "Washing machine discharge / wash water",
        "Laundry or wash water, soapy water, suds",
        False,
    ),
    (
        "pool-water",
        "Pool water or filter backwash",
        "Swimming pool water or pool filter backwash",
        False,
    ),
    (
        "oil-fuel",
        "Oil, petroleum products",
        "Oil, gasoline, diesel, a rainbow sheen on the water",
        True,
    ),
    (
        "chemicals",
        "Chemical wastes",
        "Chemicals, solvents, cleaning products, pesticides",
        True,
    ),
    ("paint", "Paint products", "Paint, stain or paint-brush rinse water", False),
    ("grease", "Grease", "Cooking grease or fat", False),
    (
        "sediment",
        "Rock, sand, sediment, dredged spoil",
        "Muddy water, sand, soil or construction runoff",
        False,
    ),
    ("solid-waste", "Solid waste, garbage", "Trash, garbage or dumped debris", False),
    (
        "yard-waste",
        "Yard waste and lawn chemicals",
        "Grass clippings, leaves, fertilizer or lawn chemicals",
        False,
    ),
    ("pet-waste", "Pet waste", "Pet waste", False),
    ("biological", "Biological materials", "Animal or food-processing waste", False),
    (
        "hazardous",
        "Hazardous materials",
        "Something that could harm people (unknown drums, strong chemical smell)",
        True,
    ),
    ("other", "Other", "Something else", False),
]

EXEMPT = [
    (
        "water-line-flushing",
        "Water line flushing or other potable water sources",
        "Flushing of water lines and other clean drinking water",
    ),
    (
        "landscape-irrigation",
        "Landscape irrigation or lawn watering",
        "Lawn watering and landscape irrigation",
    ),
    (
        "diverted-stream-flows",
        "Existing diverted stream flows",
        "Existing diverted stream flows",
    ),
    ("rising-ground-water", "Rising ground water", "Rising ground water"),
    (
        "ground-water-infiltration",
        "Uncontaminated ground water infiltration to storm drains",
        "Clean ground water seeping into storm drains",
    ),
    (
        "pumped-ground-water",
        "Uncontaminated pumped ground water",
        "Clean pumped ground water",
    ),
    (
        "foundation-drains",
        "Foundation or footing drains",
        "Foundation or footing drains",
    ),
    (
        "sump-pumps",
        "Crawl space or basement sump pumps",
        "Basement or crawl-space sump pumps",
    ),
    ("ac-condensate", "Air conditioning condensate", "Air-conditioner condensate"),
    ("irrigation-water", "Irrigation water", "Irrigation water"),
    ("springs", "Springs", "Natural springs"),
    (
        "residential-car-washing",
        "Water from individual residential car washing",
        "Washing your own car at home",
    ),
    (
        "riparian-wetland-flows",
        "Natural riparian habitat or wetland flows",
        "Natural stream-bank and wetland flows",
    ),
    (
        "residential-street-wash",
        "Residential street wash water",
        "Residential street wash water",
    ),
    (
        "fire-fighting",
        "Water from fire-fighting activities",
        "Water used to fight fires",
    ),
    (
        "other-clean-water",
        "Any other water source not containing pollutants",
        "Any other water that carries no pollutants",
    ),
]

APPEAL_TEXT = (
    "You may appeal this notice of violation to the Village Board of Trustees within "
    "15 days of its issuance. The Board shall hear the appeal within 30 days after the "
    "appeal is filed and, within five days of its decision, file its decision with the "
    "municipal clerk and mail a copy to you by certified mail."
)
# The Board's own duty once it has decided, in the words of § 132-14 (printed
# on the decision letter).
DECISION_FILING_TEXT = (
    "Within five days of making its decision, the Board of Trustees shall file its "
    "decision in the office of the municipal clerk and mail a copy of its decision "
    "by certified mail to the discharger (Village Code § 132-14)."
)
# § 132-13 B as adopted, word for word; only "this article" is named for the reader.
PENALTY_TEXT = (
    "Village Code § 132-13 B: In addition to or as an alternative to any penalty "
    "provided herein or by law, any person who violates the provisions of Chapter 132 "
    "shall be guilty of a violation punishable by a fine not exceeding $350 or "
    "imprisonment for a period not to exceed six months, or both for conviction of a "
    "first offense; for conviction of a second offense both of which were committed "
    "within a period of five years, punishable by a fine not less than $350 nor more "
    "than $700 or imprisonment for a period not to exceed six months, or both; and upon "
    "conviction for a third or subsequent offense all of which were committed within a "
    "period of five years, punishable by a fine not less than $700 nor more than $1,000 "
    "or imprisonment for a period not to exceed six months, or both. However, for the "
    "purposes of conferring jurisdiction upon courts and judicial officers generally, "
    "violations of Chapter 132 shall be deemed misdemeanors and for such purpose only "
    "all provisions of law relating to misdemeanors shall apply to such violations. "
    "Each week's continued violation shall constitute a separate additional violation."
)

CITATIONS = [
    # rule_id, section, heading, summary, notice_text
    (
        "R-DEF-1",
        "§ 132-3",
        "Definitions: pollutant, hazardous materials, construction activity",
        "Pollutants and hazardous materials as defined; construction activity is land disturbance of at least 1/8 acre.",
        "",
    ),
    (
        "R-DEF-2",
        "§ 132-3",
        "Definitions: special conditions",
        "303(d)-listed waters and TMDLs; a new TMDL requires a program change within six months.",
        "",
    ),
    (
        "R-APP-1",
        "§ 132-4",
        "Applicability",
        "Applies to all water entering the MS4 from developed and undeveloped land unless exempted.",
        "",
    ),
    (
        "R-ADM-1",
        "§ 132-5",
        "Responsibility for administration",
        "The SMO administers and enforces the article and may delegate powers in writing.",
        "",
    ),
    (
        "R-PRO-1",
        "§ 132-6 A",
        "Prohibition of illegal discharges",
        "No discharge to the MS4 other than stormwater.",
        "No person shall discharge or cause to be discharged into the MS4 any materials other than stormwater except as provided in § 132-6 A(1).",
    ),
    (
        "R-PRO-2",
        "§ 132-6 A(1)",
        "Exempt discharges",
        "The listed discharges are exempt unless determined to be substantial contributors of pollutants.",
        "",
    ),
    (
        "R-PRO-3",
        "§ 132-6 A(2)",
        "Discharges approved by the SMO",
        "Written approval by the SMO to protect life or property from imminent harm, for a period and on conditions.",
        "",
    ),
    (
        "R-PRO-4",
        "§ 132-6 A(3)",
        "Dye testing",
        "Dye testing is allowed but requires verbal notification to the SMO before the test.",
        "",
    ),
    (
        "R-PRO-5",
        "§ 132-6 A(4)",
        "SPDES-permitted discharges",
        "Discharges under an SPDES permit in full compliance, with written approval for discharge to the MS4.",
        "",
    ),
    (
        "R-CON-1",
        "§ 132-6 B",
        "Prohibition of illicit connections",
        "Illicit connections are prohibited, including past connections; connecting a sewage line is a violation.",
        "The construction, use, maintenance or continued existence of illicit connections to the MS4 is prohibited (§ 132-6 B).",
    ),
    (
        "R-ACT-1",
        "§ 132-7",
        "Activities contaminating stormwater",
        "On notification, a person engaged in contaminating activities must take all reasonable actions to correct them.",
        "Upon notification, you shall take all reasonable actions to correct activities that cause or contribute to violations of the Village's MS4 SPDES permit authorization (§ 132-7 B).",
    ),
    (
        "R-BMP-1",
        "§ 132-8",
        "Best management practices",
        "The SMO may require structural and nonstructural BMPs at the person's expense; a valid industrial SPDES permit counts as compliance.",
        "",
    ),
    (
        "R-SUS-1",
        "§ 132-9 A",
        "Emergency suspension of MS4 access",
        "Suspension without prior notice to stop an imminent and substantial danger; written notice of reasons within a reasonable time.",
        "Your MS4 discharge access was suspended without prior notice because the suspension was necessary to stop an actual or threatened discharge presenting imminent and substantial danger (§ 132-9 A).",
    ),
    (
        "R-SUS-2",
        "§ 132-9 B",
        "Termination of MS4 access for illicit discharge",
        "Written notice of proposed termination with reasons; petition for reconsideration and hearing; reinstating access without approval is an offense.",
        "You may petition the Stormwater Management Officer for reconsideration and a hearing. Reinstating MS4 access to premises terminated under § 132-9 B without the prior approval of the SMO is an offense.",
    ),
    (
        "R-IND-1",
        "§ 132-10",
        "Industrial or construction activity discharges",
        "Permittees comply with their SPDES permits; proof of compliance may be required before discharges are allowed.",
        "",
    ),
    (
        "R-ACC-1",
        "§ 132-11 B(1)-(2)",
        "Access to facilities",
        "The SMO may enter and inspect as often as necessary; the facility must give ready access.",
        "",
    ),
    (
        "R-ACC-2",
        "§ 132-11 B(3)-(4)",
        "Monitoring of discharges",
        "Monitoring devices set up by the village, or monitoring equipment the facility must install, maintain and calibrate.",
        "",
    ),
    (
        "R-ACC-3",
        "§ 132-11 B(5)",
        "Delay or denial of access",
        "Unreasonable delay of access is a violation; denial of reasonable access is an offense.",
        "Unreasonable delay in allowing the Village access to a facility is a violation; denying reasonable access is an offense (§ 132-11 B(5)).",
    ),
    (
        "R-ACC-4",
        "§ 132-11 B(6)",
        "Search warrant",
        "On refused access and probable cause, the SMO may seek a search warrant.",
        "",
    ),
    (
        "R-SPL-1",
        "§ 132-12",
        "Notification of spills: response",
        "On a known or suspected release: discovery, containment and cleanup.",
        "",
    ),
    (
        "R-SPL-2",
        "§ 132-12",
        "Notification of spills: hazardous release",
        "Immediately notify emergency response agencies via emergency dispatch (911).",
        "",
    ),
    (
        "R-SPL-3",
        "§ 132-12",
        "Notification of spills: nonhazardous release",
        "Notify the village in person, by telephone or fax no later than the next business day.",
        "",
    ),
    (
        "R-SPL-4",
        "§ 132-12",
        "Notification of spills: written confirmation",
        "A telephone or in-person notice must be confirmed by written notice mailed within three business days.",
        "Notifications in person or by telephone shall be confirmed by written notice addressed and mailed to the Village within three business days of the telephone notice (§ 132-12).",
    ),
    (
        "R-SPL-5",
        "§ 132-12",
        "Notification of spills: records",
        "Commercial or industrial establishments keep an on-site written record for at least three years.",
        "",
    ),
    (
        "R-NOV-1",
        "§ 132-13 A",
        "Notice of violation",
        "Written notice of violation to the responsible person, requiring any of § 132-13 A(1)-(6).",
        "The Stormwater Management Officer has found that you have violated a prohibition or failed to meet a requirement of Chapter 132 of the Village Code, and the Village orders compliance as set out below (§ 132-13 A).",
    ),
    (
        "R-NOV-2",
        "§ 132-13 A",
        "Notice of violation: remediation deadline",
        "Where abatement or restoration is required, a deadline, and the work done at the violator's expense if missed.",
        "Should you fail to remediate or restore within the established deadline, the work will be done by a designated governmental agency or a contractor and the expense thereof shall be charged to you (§ 132-13 A).",
    ),
    (
        "R-PEN-1",
        "§ 132-13 B",
        "Penalties: first offense",
        "Fine not exceeding $350 or imprisonment up to six months, or both.",
        PENALTY_TEXT,
    ),
    (
        "R-PEN-2",
        "§ 132-13 B",
        "Penalties: second offense",
        "Second offense within five years: $350 to $700 or up to six months, or both.",
        "",
    ),
    (
        "R-PEN-3",
        "§ 132-13 B",
        "Penalties: third or later offense",
        "Third or later offense within five years: $700 to $1,000 or up to six months, or both.",
        "",
    ),
    (
        "R-PEN-4",
        "§ 132-13 B",
        "Penalties: continued violation",
        "Each week's continued violation is a separate additional violation.",
        "",
    ),
    (
        "R-APL-1",
        "§ 132-14",
        "Appeal of notice of violation",
        "Appeal to the Board of Trustees within 15 days of the notice's issuance.",
        APPEAL_TEXT,
    ),
    (
        "R-APL-2",
        "§ 132-14",
        "Appeal: hearing",
        "The Board hears the appeal within 30 days after the filing.",
        "",
    ),
    (
        "R-APL-3",
        "§ 132-14",
        "Appeal: decision",
        "Within five days of its decision the Board files it with the municipal clerk and mails a copy by certified mail.",
        DECISION_FILING_TEXT,
    ),
    (
        "R-COR-1",
        "§ 132-15 A",
        "Corrective measures after appeal",
        "Not corrected per the notice, or within five business days of a decision upholding the SMO: the SMO requests the owner's permission for access to abate.",
        "The violation has not been corrected as required. The Stormwater Management Officer requests your permission for access to the property to take all measures reasonably necessary to abate the violation and/or restore the property (§ 132-15 A).",
    ),
    (
        "R-COR-2",
        "§ 132-15 B",
        "Corrective measures: warrant and costs",
        "Refused access: warrant and court order; the cost is the discharger's sole responsibility.",
        "The cost of implementing and maintaining such measures is the sole responsibility of the discharger (§ 132-15 B).",
    ),
    (
        "R-INJ-1",
        "§ 132-16",
        "Injunctive relief",
        "The SMO may petition for a preliminary or permanent injunction.",
        "",
    ),
    (
        "R-ALT-1",
        "§ 132-17 A",
        "Alternative remedies: eligibility",
        "In lieu of a civil penalty, on recommendation of the Municipal Attorney and concurrence of the Building Inspector, where the five criteria are met.",
        "",
    ),
    (
        "R-ALT-2",
        "§ 132-17 B",
        "Alternative remedies: kinds",
        "Compliance workshops, storm drain stenciling or marking, river/stream/creek cleanup.",
        "",
    ),
    (
        "R-NUI-1",
        "§ 132-18",
        "Violations deemed a public nuisance",
        "A violating condition is a nuisance and may be summarily abated at the violator's expense.",
        "Any condition caused or permitted to exist in violation of Chapter 132 is deemed a nuisance and may be summarily abated or restored at the violator's expense (§ 132-18).",
    ),
    (
        "R-REM-1",
        "§ 132-19",
        "Remedies not exclusive",
        "Remedies are cumulative.",
        "The remedies of Chapter 132 are not exclusive of any other remedies available under federal, state or local law (§ 132-19).",
    ),
]


# rule_id, section, heading (the law's words), summary, notice_text
REQUIREMENT_CITATIONS = [
    (
        "R-NOV-1(1)",
        "§ 132-13 A(1)",
        "The elimination of illicit connections or discharges",
        "A notice of violation may require the elimination of illicit connections or discharges.",
        "You are required to eliminate the illicit connections or discharges identified below.",
    ),
    (
        "R-NOV-1(2)",
        "§ 132-13 A(2)",
        "That violating discharges, practices, or operations shall cease and desist",
        "A notice of violation may require that violating discharges, practices or operations cease and desist.",
        "The violating discharges, practices or operations identified below shall cease and desist.",
    ),
    (
        "R-NOV-1(3)",
        "§ 132-13 A(3)",
        "The abatement or remediation of stormwater pollution or contamination hazards and the restoration of any affected property",
        "A notice of violation may require abatement or remediation and restoration; the notice then sets a deadline (R-NOV-2).",
        "You are required to abate or remediate the stormwater pollution or contamination hazards and to restore the affected property as described below.",
    ),
    (
        "R-NOV-1(4)",
        "§ 132-13 A(4)",
        "The performance of monitoring, analyses, and reporting",
        "A notice of violation may require monitoring, analyses and reporting.",
        "You are required to perform the monitoring, analyses and reporting described below.",
    ),
    (
        "R-NOV-1(5)",
        "§ 132-13 A(5)",
        "Payment of a fine",
        "A notice of violation may require payment of a fine (tiers of § 132-13 B).",
        "You are required to pay the fine stated below.",
    ),
    (
        "R-NOV-1(6)",
        "§ 132-13 A(6)",
        "The implementation of source control or treatment BMPs",
        "A notice of violation may require source control or treatment best management practices.",
        "You are required to implement the source control or treatment best management practices described below.",
    ),
]


def seed_rows(pollutant_model, exempt_model, citation_model, *, overwrite: bool):
    """Create (or, with overwrite, update) every reference row."""
    write = "update_or_create" if overwrite else "get_or_create"
    for order, (code, name, plain, hazardous) in enumerate(POLLUTANTS):
        getattr(pollutant_model.objects, write)(
            code=code,
            defaults={
                "name": name,
                "plain_name": plain,
                "hazardous": hazardous,
                "sort_order": order,
            },
        )
    for order, (code, name, plain) in enumerate(EXEMPT):
        getattr(exempt_model.objects, write)(
            code=code,
            defaults={"name": name, "plain_description": plain, "sort_order": order},
        )
    for rule_id, section, heading, summary, notice_text in (
        *CITATIONS,
        *REQUIREMENT_CITATIONS,
    ):
        getattr(citation_model.objects, write)(
            rule_id=rule_id,
            defaults={
                "section": section,
                "heading": heading,
                "summary": summary,
                "notice_text": notice_text,
            },
        )


def ensure_reference_data(*args, using="default", **kwargs):
    """post_migrate: create the reference rows that are missing."""
    from intake.models import ExemptCategory, PollutantCategory
    from kernel.models import Citation

    if (
        not Citation.objects.using(using).exists()
        or not PollutantCategory.objects.using(using).exists()
    ):
        seed_rows(PollutantCategory, ExemptCategory, Citation, overwrite=False)
