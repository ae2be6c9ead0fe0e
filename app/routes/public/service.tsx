import type { Route } from "./+types/service";
import { CallToAction } from "../../components/sections/CallToAction";
import { Counters } from "../../components/sections/Counters";
import { Experience } from "../../components/sections/Experience";
import { Features } from "../../components/sections/Features";
import { PageHeader } from "../../components/sections/PageHeader";
import { Steps, WorkSteps } from "../../components/sections/Process";
import { ServiceAbout } from "../../components/sections/ServiceAbout";
import { Services } from "../../components/sections/Services";
import { Team, VideoSection } from "../../components/sections/Team";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const c = await context.services.content.snapshot();
  return {
    counter: c.counter[0],
    serviceHeading: c.serviceHeading[0],
    services: c.serviceItem,
    about: c.about[0],
    workSteps: c.workStep,
    steps: c.step,
    featuresText: c.featuresText[0],
    features: c.featureItem,
    experience: c.experience[0],
    teamText: c.teamText[0],
    team: c.teamMember,
    video: c.videoSection[0],
    videoTeam: c.videoTeamMember,
    action: c.action[0],
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Service Page",
    description:
      args.data?.serviceHeading?.servicesubHeading ??
      "Interior design, styling and search engine optimisation services.",
    path: "/service/",
  });

/** /service/: counters, services, the about block with fixed skill bars, then the studio's other sections, and the call to action. */
export default function ServicePage({ loaderData: d }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Service Page" lead={d.serviceHeading?.servicesubHeading} />
      <Counters counter={d.counter} />
      <Services heading={d.serviceHeading} items={d.services} detailed />
      <ServiceAbout about={d.about} />
      <WorkSteps steps={d.workSteps} />
      <Features heading={d.featuresText} items={d.features} />
      <Steps steps={d.steps} />
      <Experience experience={d.experience} />
      <VideoSection video={d.video} members={d.videoTeam} />
      <Team heading={d.teamText} members={d.team} />
      <CallToAction action={d.action} />
    </>
  );
}
