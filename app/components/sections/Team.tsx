import type { SectionProps } from "./props";
import { parseVideoId, watchUrl } from "#domain/video.ts";
import { Section } from "./Section";
import { ContentImage } from "../media/ContentImage";

export function Team({ heading, records: members }: SectionProps<"teamMember">) {
  if (members.length === 0) return null;
  return (
    <Section tone="sand" eyebrow="The studio" title={heading?.teamHeading} lead={heading?.teamText}>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {members.map((m) => (
          <li key={m._id} className="text-center">
            <ContentImage
              src={m.teamMemberImg}
              sizes="(min-width: 1152px) 260px, (min-width: 1024px) 22vw, (min-width: 640px) 45vw, 92vw"
              width={400}
              height={400}
              className="aspect-square w-full rounded-3xl object-cover"
            />
            <h3 className="mt-4 text-lg text-forest">{m.teamMemberName}</h3>
            <p className="text-sm text-mist">{m.teamMemberTitle}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

const SOCIAL = [
  ["facebookLink", "Facebook"],
  ["twitterLink", "Twitter"],
  ["linkedinLink", "LinkedIn"],
  ["youtubeLink", "YouTube"],
] as const;

/** The video section with its team members: a player when the link is a video, otherwise the image. */
export function VideoSection({ heading: video, records: members }: SectionProps<"videoTeamMember">) {
  if (!video && members.length === 0) return null;
  const videoId = video ? parseVideoId(video.videoLink) : null;
  return (
    <Section eyebrow="Inside the studio" title={video?.videoSectionTitle} lead={video?.videoSectionText}>
      {video ? (
        <div className="mx-auto max-w-4xl overflow-hidden rounded-3xl bg-forest shadow-xl">
          {videoId ? (
            <VideoFacade id={videoId} title={video.videoSectionTitle} poster={video.imageLink} />
          ) : (
            <ContentImage
              src={video.imageLink}
              sizes="(min-width: 960px) 896px, 92vw"
              width={1200}
              height={675}
              className="aspect-video w-full object-cover"
            />
          )}
        </div>
      ) : null}
      {members.length ? (
        <ul className="mx-auto mt-14 grid max-w-4xl gap-6 sm:grid-cols-3">
          {members.map((m) => (
            <li key={m._id} className="flex items-center gap-4 rounded-2xl border border-linen p-4">
              <ContentImage
                src={m.memberImg}
                sizes="64px"
                width={400}
                height={400}
                className="h-16 w-16 rounded-full object-cover"
              />
              <div>
                <p className="font-semibold text-forest">{m.membername}</p>
                <p className="text-sm text-mist">{m.memberPosition}</p>
                <p className="mt-1 flex gap-2 text-xs">
                  {SOCIAL.filter(([k]) => m[k]).map(([k, label]) => (
                    <a
                      key={k}
                      href={m[k]}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="text-clay hover:underline"
                    >
                      {label}
                    </a>
                  ))}
                </p>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}

/**
 * The poster with a play button, a link to the video on YouTube (in a new tab): it works without JavaScript (the public
 * pages have none) and no third-party player loads until the visitor asks for the video.
 */
function VideoFacade({ id, title, poster }: { id: string; title: string; poster: string }) {
  return (
    <a
      href={watchUrl(id)}
      target="_blank"
      rel="noopener noreferrer"
      className="group relative block aspect-video"
      aria-label={`Play video: ${title} (opens YouTube in a new tab)`}
    >
      <ContentImage
        src={poster}
        sizes="(min-width: 960px) 896px, 92vw"
        width={1200}
        height={675}
        className="h-full w-full object-cover"
      />
      <span className="absolute inset-0 flex items-center justify-center bg-forest/20 transition-colors group-hover:bg-forest/35">
        <span className="inline-flex h-20 w-20 items-center justify-center rounded-full bg-white/95 text-clay shadow-xl transition-transform group-hover:scale-105">
          <svg width="28" height="28" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
            <path d="M8 5v14l11-7z" />
          </svg>
        </span>
      </span>
    </a>
  );
}
