import type { NewRecord, SectionType } from "#domain/registry.ts";

/**
 * What a fresh install shows: the public site of a fictional studio, Atelier North, filled in for every section
 * of the registry, so a new site looks finished before an administrator edits anything.
 * Images live in public/images; addresses and phone numbers are fictional (example.com, drama-range numbers).
 */

const STUDIO_FACEBOOK = "https://www.facebook.com/ateliernorthstudio";
const STUDIO_YOUTUBE = "https://www.youtube.com/@ateliernorthstudio";

const PRIVACY_TEXT = `This notice explains what Atelier North Studio Ltd ("we", "us") does with personal information about the people who visit our website, subscribe to our newsletter, write to us or hold a membership. We are the controller of that information under the UK General Data Protection Regulation (UK GDPR) and the Data Protection Act 2018.

Who we are
Atelier North Studio Ltd, Unit 4, 18 Mill Lane, Leeds LS1 4AB, United Kingdom. You can reach the person responsible for data protection at privacy@example.com.

What we collect
- Your account: your email address, your password (stored only as a salted hash we cannot read), and when you accepted these documents.
- Your orders: the package you chose, your full name, address and country, the price, the payment status and the PayPal transaction number. PayPal handles your card or wallet; we never see card details.
- Your messages: your name, email, phone number if you give one, subject and message when you use our contact form.
- Our newsletter: your email address and when you confirmed it.
- Technical records: your IP address and browser, kept in our security logs to stop abuse of the sign-in and contact forms.

Why we use it
We use your account and order details to provide the membership you bought (performance of a contract), to keep accounts and invoices (a legal obligation), and to answer your messages (our legitimate interest in running the studio). We send the newsletter only if you ask for it and confirm your address (consent), and you can unsubscribe with one click from any issue. We keep security logs because we have a legitimate interest in protecting your account and our site.

Who we share it with
PayPal, to take payments; our hosting and email providers, who process it on our instructions under contracts that protect it. We do not sell your information or use it for advertising.

How long we keep it
Accounts are kept while you have one and for two years after your last sign-in. Orders and invoices are kept for six years after the end of the financial year they belong to, as HMRC requires. Messages are kept for two years. Newsletter addresses are removed as soon as you unsubscribe. Security logs are kept for 90 days.

Your rights
Under UK GDPR you may ask for a copy of your information (access), have it corrected, have it erased, restrict or object to our use of it, and receive it in a portable form. Where we rely on your consent you can withdraw it at any time. Write to privacy@example.com; we answer within one month and there is no charge. Some records, such as invoices, must be kept even after you ask us to erase your account.

Complaints
If you are unhappy with how we handle your information, please tell us first. You also have the right to complain to the Information Commissioner's Office (ico.org.uk, 0303 123 1113).

Changes to this notice
When we change this notice we update the date above. If a change affects how we use your information, we will tell you by email before it takes effect.`;

const TERMS_TEXT = `These terms apply to your account and any membership you buy from Atelier North Studio Ltd, Unit 4, 18 Mill Lane, Leeds LS1 4AB, United Kingdom (company number 01234567). Please read them before you register; by ticking the box on the registration form you agree to them.

Your account
You need an account to buy a membership. Keep your password to yourself and choose one that is not used elsewhere. You are responsible for what is done with your account; tell us at once at studio@example.com if you think someone else has used it.

Memberships
A membership gives you access to our cold-email template generators for the number of days shown with the package you choose. Prices are shown in US dollars and include any taxes that apply. Your membership starts when we activate it after your payment is confirmed, and we tell you by email when it is active and before it ends.

Payment
Payments are taken by PayPal. An order is only paid when PayPal confirms the payment to us. If a payment is reversed or refunded, the days it paid for are removed from your membership.

Cancellation and refunds
As a consumer you may cancel within 14 days of buying a membership. If you ask us to activate it within those 14 days and then cancel, we may keep a fair amount for the days you used. To cancel, write to studio@example.com with your order number. Refunds are made through PayPal within 14 days.

Using the templates
The templates are for your own outreach. Do not resell them or publish them as your own, and follow the law on marketing emails, including the Privacy and Electronic Communications Regulations: write only to people you may lawfully contact, and always let them opt out.

Our responsibility
We take reasonable care to keep the site available and the templates useful, but we cannot promise any particular result from your campaigns. Nothing in these terms limits our responsibility for death or injury caused by our negligence, for fraud, or for anything the law does not allow us to exclude. Otherwise our responsibility to you is limited to the price you paid for the membership concerned.

Ending your account
You may close your account at any time by writing to us. We may suspend or close an account that is used to break the law or these terms, and will tell you why.

Changes to these terms
We may change these terms; the date above shows the latest version. Changes do not affect a membership you have already paid for.

Law
These terms are governed by the law of England and Wales. If you live elsewhere in the UK you may also bring proceedings in your own courts.`;

// Typed from the registry: a missing, misspelled or mistyped field fails typecheck, and so does a section with no record.
const records = [
  // Header
  { type: "logo", data: { logo: "/images/logo.svg" } },

  // Hero
  {
    type: "banner",
    data: {
      bannerHeading: "Spaces people remember, websites people find",
      buttonTwoLink: "Interior Design & SEO Studio",
      bannerDetails:
        "Atelier North designs calm, hard-working interiors for homes, offices and hospitality venues, then helps design-led businesses earn the search rankings their work deserves.",
      bannerImage: "/images/hero.svg",
      buttonOneText: "Explore Membership Plans",
      buttonOneLink: "/pricing",
    },
  },

  // Services
  {
    type: "serviceHeading",
    data: {
      serviceHeading: "What We Do",
      servicesubHeading:
        "Two disciplines under one roof: considered interiors for the way you live and work, and search strategy that brings the right clients to your door.",
    },
  },
  {
    type: "serviceItem",
    data: {
      serviceIcon: "/images/icon-space-planning.svg",
      serviceTitle: "Space Planning",
      serviceDetails:
        "Measured layouts that solve circulation, storage and daylight before a single piece of furniture is bought. Every plan comes as scaled drawings your builder can work from.",
      serviceName: "Interior Design",
    },
  },
  {
    type: "serviceItem",
    data: {
      serviceIcon: "/images/icon-styling.svg",
      serviceTitle: "Furniture & Styling",
      serviceDetails:
        "Furniture, textiles and art sourced to your budget from trade suppliers and independent makers. We manage ordering and delivery, then style the finished room.",
      serviceName: "Interior Design",
    },
  },
  {
    type: "serviceItem",
    data: {
      serviceIcon: "/images/icon-lighting.svg",
      serviceTitle: "Lighting Design",
      serviceDetails:
        "Layered ambient, task and accent lighting for homes, workplaces and restaurants, specified down to fittings, colour temperature and dimming scenes.",
      serviceName: "Interior Design",
    },
  },
  {
    type: "serviceItem",
    data: {
      serviceIcon: "/images/icon-seo.svg",
      serviceTitle: "SEO for Design Businesses",
      serviceDetails:
        "Technical audits, keyword research and on-page fixes for architects, interior studios, furniture makers and hospitality brands that want more qualified enquiries.",
      serviceName: "SEO",
    },
  },
  {
    type: "serviceItem",
    data: {
      serviceIcon: "/images/icon-analytics.svg",
      serviceTitle: "Content & Analytics",
      serviceDetails:
        "Project case studies, service pages and plain-English monthly reports that show which searches turn into calls, bookings and signed briefs.",
      serviceName: "SEO",
    },
  },
  {
    type: "serviceItem",
    data: {
      serviceIcon: "/images/icon-branding.svg",
      serviceTitle: "Brand & Portfolio",
      serviceDetails:
        "Identity refinements and portfolio pages that present your projects with the same care you put into them, built to load fast and rank well.",
      serviceName: "SEO",
    },
  },

  // About (alternating blocks)
  {
    type: "about",
    data: {
      aboutImg: "/images/about-living.svg",
      aboutText: "About Atelier North",
      aboutHeading: "Interiors shaped around how you actually live and work",
      aboutPointOne: "Residential Design",
      aboutPointOneDetails:
        "From a single living room to a whole-house renovation, we plan layouts, finishes and furniture around your daily routines.",
      aboutPointTwo: "Offices & Workspaces",
      aboutPointTwoDetails:
        "Focus zones, meeting rooms and breakout areas that help teams do their best work and make a confident first impression on clients.",
      aboutPointThree: "Hospitality Interiors",
      aboutPointThreeDetails:
        "Cafés, restaurants and boutique hotels with an atmosphere guests remember, photograph and come back for.",
      buttonText: "Discover Our Services",
      buttonLink: "/service/",
    },
  },
  {
    type: "about",
    data: {
      aboutImg: "/images/about-workspace.svg",
      aboutText: "Design-Led SEO",
      aboutHeading: "Beautiful work deserves to be found on page one",
      aboutPointOne: "Audits That Lead to Action",
      aboutPointOneDetails:
        "We review speed, structure and content, then hand you a prioritised list of fixes ranked by the enquiries they are likely to bring.",
      aboutPointTwo: "Outreach That Sounds Like You",
      aboutPointTwoDetails:
        "Members generate cold emails for web design, video editing, SEO, graphic design and Facebook marketing leads, ready to personalise and send.",
      aboutPointThree: "Reporting Without Jargon",
      aboutPointThreeDetails:
        "One short monthly report: rankings, traffic and enquiries, with the next three things worth doing.",
      buttonText: "Talk to Our Team",
      buttonLink: "/contact",
    },
  },

  // Video section and its team
  {
    type: "videoSection",
    data: {
      imageLink: "/images/video-poster.svg",
      videoLink: "https://www.youtube.com/watch?v=Q7tR2mVb9Kc",
      videoSectionTitle: "Inside a project: from empty shell to opening night",
      videoSectionText:
        "Follow our team through a twelve-week restaurant fit-out in Leeds: the first sketches, the material board, the lighting tests and the launch that filled its bookings for a month.",
    },
  },
  {
    type: "videoTeamMember",
    data: {
      facebookLink: STUDIO_FACEBOOK,
      youtubeLink: STUDIO_YOUTUBE,
      memberImg: "/images/team-1.svg",
      membername: "Amara Okafor",
      memberPosition: "Founder & Creative Director",
    },
  },
  {
    type: "videoTeamMember",
    data: {
      facebookLink: STUDIO_FACEBOOK,
      youtubeLink: STUDIO_YOUTUBE,
      memberImg: "/images/team-2.svg",
      membername: "Jonas Lindqvist",
      memberPosition: "Senior Interior Designer",
    },
  },
  {
    type: "videoTeamMember",
    data: {
      facebookLink: STUDIO_FACEBOOK,
      youtubeLink: STUDIO_YOUTUBE,
      memberImg: "/images/team-3.svg",
      membername: "Priya Raman",
      memberPosition: "Head of SEO",
    },
  },

  // Steps
  {
    type: "step",
    data: {
      stepTitle: "Discovery Call",
      stepDetails: "A 30-minute conversation about your space or website, your goals, your timeline and your budget.",
      stepNumber: "01",
    },
  },
  {
    type: "step",
    data: {
      stepTitle: "Proposal & Plan",
      stepDetails: "A fixed-fee proposal with a clear scope, milestones and the deliverables you will receive.",
      stepNumber: "02",
    },
  },
  {
    type: "step",
    data: {
      stepTitle: "Design & Build",
      stepDetails: "Concepts, revisions and delivery, with a weekly update so you always know what happens next.",
      stepNumber: "03",
    },
  },
  {
    type: "step",
    data: {
      stepTitle: "Launch & Review",
      stepDetails: "We hand over, measure the results after 30 days and agree any refinements together.",
      stepNumber: "04",
    },
  },

  // Work section: exactly four steps, 01 to 04
  {
    type: "workStep",
    data: {
      stepNumber: "01",
      stepTitle: "Listen",
      stepDetails: "We visit the space or audit the site, and learn how you and your clients use it today.",
      stapIcon: "/images/step-listen.svg",
    },
  },
  {
    type: "workStep",
    data: {
      stepNumber: "02",
      stepTitle: "Plan",
      stepDetails: "Layouts, mood boards or a keyword map: one clear plan, priced and scheduled before work starts.",
      stapIcon: "/images/step-plan.svg",
    },
  },
  {
    type: "workStep",
    data: {
      stepNumber: "03",
      stepTitle: "Create",
      stepDetails: "Our designers and SEO specialists deliver the work, sharing progress at every milestone.",
      stapIcon: "/images/step-create.svg",
    },
  },
  {
    type: "workStep",
    data: {
      stepNumber: "04",
      stepTitle: "Grow",
      stepDetails: "We review the finished space or the new rankings with you and fine-tune what the data shows.",
      stapIcon: "/images/step-grow.svg",
    },
  },

  // Counters (all text)
  {
    type: "counter",
    data: {
      happyClientsNumber: "1,250+",
      happyClientsText: "Happy Clients",
      projectCompleteNumber: "860+",
      projectCompleteText: "Projects Completed",
      yearofExperienceNumber: "14",
      yearofExperienceText: "Years of Experience",
      winingAwardNumber: "27",
      winingAwardText: "Design & Digital Awards",
    },
  },

  // Call to action
  {
    type: "action",
    data: {
      heading: "Ready to make your space, and your website, work harder?",
      subHeading:
        "Tell us about your home, your workplace or your business. A designer or an SEO specialist will reply within one working day with honest next steps.",
      buttonText: "Let's Talk For Support",
      buttonLink: "/",
    },
  },

  // Pricing: Basic and Standard show seven points, Premium all ten. Every active membership opens every catalogue
  // item (app/lib/membership.ts), so the plans differ in the studio's services that come with them, never in generators.
  {
    type: "pricing",
    data: {
      packageName: "Basic",
      packagePrice: 49,
      packageValidity: 30,
      packageButtonText: "Get Started",
      packagePointOne: "All five cold-email generators for 30 days",
      packagePointTwo: "Web design, video editing, SEO, graphic design and Facebook marketing templates",
      packagePointThree: "Unlimited generations, each ready to copy and edit",
      packagePointFour: "One 30-minute interior-design consultation",
      packagePointFive: "SEO starter checklist for design businesses",
      packagePointSix: "Renew before it ends and the new days are added on",
      packagePointSeven: "Email support within 48 hours",
    },
  },
  {
    type: "pricing",
    data: {
      packageName: "Standard",
      packagePrice: 99,
      packageValidity: 30,
      packageButtonText: "Get Started",
      packagePointOne: "All five cold-email generators for 30 days",
      packagePointTwo: "Unlimited generations, each ready to copy and edit",
      packagePointThree: "Two 45-minute interior-design consultations",
      packagePointFour: "One SEO audit of your website with a prioritised fix list",
      packagePointFive: "Mood board and material palette review",
      packagePointSix: "Renew before it ends and the new days are added on",
      packagePointSeven: "Priority email support within 24 hours",
    },
  },
  {
    type: "pricing",
    data: {
      packageName: "Premium",
      packagePrice: 199,
      packageValidity: 30,
      packageButtonText: "Get Started",
      packagePointOne: "All five cold-email generators for 30 days",
      packagePointTwo: "Unlimited generations, each ready to copy and edit",
      packagePointThree: "Monthly interior-design consultation of up to 90 minutes",
      packagePointFour: "Full technical and content SEO audit",
      packagePointFive: "Keyword plan for two priority service pages",
      packagePointSix: "Space-planning review of one room or floor plan",
      packagePointSeven: "Portfolio and case-study copy review",
      packagePointEight: "Monthly strategy call with a senior designer",
      packagePointNine: "Renew before it ends and the new days are added on",
      packagePointTen: "Same-day priority support by email and phone",
    },
  },

  // FAQ
  {
    type: "faqText",
    data: {
      faqHeading: "Frequently Asked Questions",
      faqText:
        "Straight answers about memberships, consultations and how we work. If your question is not here, send us a message and we will reply within one working day.",
    },
  },
  {
    type: "faqItem",
    data: {
      accodingTitle: "What does a membership include?",
      accodingText:
        "Every plan opens all five cold-email generators (web design, video editing, SEO service, graphic design and Facebook marketing) for as many days as the plan is valid. The plans differ in the consultations and SEO support that come with them: Premium adds a full SEO audit, a keyword plan and monthly strategy calls.",
    },
  },
  {
    type: "faqItem",
    data: {
      accodingTitle: "How long does a membership last?",
      accodingText:
        "Each plan runs for the number of days shown on its card, counted from the day your payment is received. The studio then activates your membership, and your dashboard shows when it is active and when it ends. Buying again before it ends adds the new days to the end of your current membership.",
    },
  },
  {
    type: "faqItem",
    data: {
      accodingTitle: "Do you take on full interior projects outside the membership?",
      accodingText:
        "Yes. We design complete homes, offices, restaurants and boutique hotels on a fixed-fee basis. Start with a consultation and we will send a tailored proposal.",
    },
  },
  {
    type: "faqItem",
    data: {
      accodingTitle: "Can I use the cold-email templates for my own clients?",
      accodingText:
        "Yes. The generated emails are yours to edit and send for your business. We recommend personalising the first line and the offer for every prospect.",
    },
  },
  {
    type: "faqItem",
    data: {
      accodingTitle: "How soon will I see SEO results?",
      accodingText:
        "Technical fixes often show within a few weeks; content and local rankings usually take three to six months. Our monthly reports show exactly what has moved and why.",
    },
  },

  // Testimonials
  {
    type: "testimonialText",
    data: {
      testimonialHeading: "What Our Clients Say",
      testimonialText: "Homeowners, restaurateurs and studio founders on working with Atelier North.",
    },
  },
  {
    type: "testimonial",
    data: {
      image: "/images/client-1.svg",
      personName: "Hannah Whitfield",
      personTitle: "Owner, Whitfield & Rye Bakery",
      desc: "Atelier North redesigned our café and rebuilt our website in the same season. The new space feels twice the size, and we now appear first for bakery searches across the city.",
    },
  },
  {
    type: "testimonial",
    data: {
      image: "/images/client-2.svg",
      personName: "Marcus Bello",
      personTitle: "Managing Partner, Bello Architects",
      desc: "Their SEO audit was the clearest we have ever received: twelve fixes, in order, with the reason for each. Enquiries from our website doubled within five months.",
    },
  },
  {
    type: "testimonial",
    data: {
      image: "/images/client-3.svg",
      personName: "Sofia Marchetti",
      personTitle: "Homeowner, Harrogate",
      desc: "We came with a cramped, dark ground floor and left with a kitchen everyone gathers in. The team listened, kept to budget and made every decision feel easy.",
    },
  },

  // Features
  {
    type: "featuresText",
    data: {
      FeaturesHeading: "Why Choose Atelier North",
      FeaturesText:
        "Designers and search specialists who work side by side, so your space and your online presence tell the same story.",
    },
  },
  {
    type: "featureItem",
    data: {
      FeaturesImg: "/images/feature-consultation.svg",
      FeaturesIcon: "/images/feature-icon-chat.svg",
      FeaturesText: "Personal Consultations",
      FeaturesDesc:
        "Talk directly to the designer who will work on your project, in the studio, on site or by video call.",
    },
  },
  {
    type: "featureItem",
    data: {
      FeaturesImg: "/images/feature-materials.svg",
      FeaturesIcon: "/images/feature-icon-palette.svg",
      FeaturesText: "Curated Materials",
      FeaturesDesc:
        "A library of tested finishes, fabrics and fittings from suppliers we trust, so choices are faster and safer.",
    },
  },
  {
    type: "featureItem",
    data: {
      FeaturesImg: "/images/feature-seo.svg",
      FeaturesIcon: "/images/feature-icon-chart.svg",
      FeaturesText: "Measurable SEO",
      FeaturesDesc:
        "Every recommendation is tied to rankings, traffic or enquiries, and reported monthly in plain English.",
    },
  },
  {
    type: "featureItem",
    data: {
      FeaturesImg: "/images/feature-templates.svg",
      FeaturesIcon: "/images/feature-icon-mail.svg",
      FeaturesText: "Ready-to-Send Outreach",
      FeaturesDesc:
        "Members generate cold emails for five lead categories in seconds, written by people who sell creative services.",
    },
  },

  // Team
  {
    type: "teamText",
    data: {
      teamHeading: "Meet Our Team",
      teamText:
        "Interior designers, a lighting specialist and search strategists with more than fifty years of combined experience.",
    },
  },
  {
    type: "teamMember",
    data: {
      teamMemberImg: "/images/team-1.svg",
      teamMemberName: "Amara Okafor",
      teamMemberTitle: "Founder & Creative Director",
    },
  },
  {
    type: "teamMember",
    data: {
      teamMemberImg: "/images/team-2.svg",
      teamMemberName: "Jonas Lindqvist",
      teamMemberTitle: "Senior Interior Designer",
    },
  },
  {
    type: "teamMember",
    data: {
      teamMemberImg: "/images/team-3.svg",
      teamMemberName: "Priya Raman",
      teamMemberTitle: "Head of SEO",
    },
  },
  {
    type: "teamMember",
    data: {
      teamMemberImg: "/images/team-4.svg",
      teamMemberName: "Daniel Reyes",
      teamMemberTitle: "Lighting & Technical Designer",
    },
  },

  // Experience
  {
    type: "experience",
    data: {
      experienceText: "Our Experience",
      experienceHeading: "Fourteen years of rooms, brands and rankings",
      experienceDetails:
        "Since 2012 we have completed more than 860 projects, from family homes and head offices to award-winning restaurants, and helped design-led businesses grow through search.",
      skillOneText: "Interior Design",
      skillOneNumber: 85,
      skillTwoText: "Search Engine Optimisation",
      skillTwoNumber: 65,
      skillThreeText: "Brand & Content Strategy",
      skillThreeNumber: 79,
    },
  },

  // Contact blocks
  {
    type: "contactBlock",
    data: {
      contactImg: "/images/contact-phone.svg",
      contactTitle: "Call the Studio",
      contactDetails: "+44 113 496 0728, Monday to Friday, 9:00 to 17:30",
    },
  },
  {
    type: "contactBlock",
    data: {
      contactImg: "/images/contact-mail.svg",
      contactTitle: "Email Us",
      contactDetails: "studio@example.com. We reply within one working day.",
    },
  },
  {
    type: "contactBlock",
    data: {
      contactImg: "/images/contact-pin.svg",
      contactTitle: "Visit the Studio",
      contactDetails: "Unit 4, 18 Mill Lane, Leeds LS1 4AB. Visits by appointment.",
    },
  },

  // Footer
  {
    type: "footerAbout",
    data: {
      aboutFooterText: "About Atelier North",
      aboutFooterDetails:
        "An interior design and SEO studio in Leeds, creating homes, workplaces and hospitality spaces, and helping design-led businesses get found online.",
    },
  },
  {
    type: "footerAddress",
    data: {
      Location: "Unit 4, 18 Mill Lane, Leeds LS1 4AB, United Kingdom",
      Phone: "+44 113 496 0728",
      footerEmail: "studio@example.com",
    },
  },
  { type: "footerSocial", data: { fblink: STUDIO_FACEBOOK, inslink: STUDIO_YOUTUBE } },
  { type: "copyright", data: { copyrightText: "© 2026 Atelier North Studio. All rights reserved." } },

  // The documents a person accepts when registering (decision 037): demo text for the studio to review with its adviser.
  {
    type: "privacy",
    data: {
      documentHeading: "Privacy notice",
      lastUpdated: "1 May 2026",
      documentText: PRIVACY_TEXT,
    },
  },
  {
    type: "terms",
    data: {
      documentHeading: "Terms of membership",
      lastUpdated: "1 May 2026",
      documentText: TERMS_TEXT,
    },
  },

  // Search listings (domain/page-seo.ts): empty, so each page's title, description and image come from its content.
  { type: "seoHome", data: {} },
  { type: "seoService", data: {} },
  { type: "seoPricing", data: {} },
  { type: "seoContact", data: {} },
  { type: "seoThanks", data: {} },
  { type: "seoPrivacy", data: {} },
  { type: "seoTerms", data: {} },
] as const satisfies readonly NewRecord[];

type WithoutRecord = Exclude<SectionType, (typeof records)[number]["type"]>;
const everySectionHasARecord: [WithoutRecord] extends [never] ? true : { withoutRecord: WithoutRecord } = true;
void everySectionHasARecord;

export const demoContent: NewRecord[] = [...records];
