import type { SectionProps } from "./props";
import { embedUrl, parseVideoId } from "#domain/video.ts";
import { SmartLink } from "./SmartLink";
import { ContentImage } from "../media/ContentImage";

/** The hero banner: tagline, heading, details, one button; a video player when the image is a video link. */
export function Hero({ record: banner }: SectionProps<"banner">) {
  if (!banner) return null;
  const videoId = parseVideoId(banner.bannerImage);
  return (
    <section className="relative overflow-hidden bg-sand">
      <div className="absolute -top-24 -right-24 h-80 w-80 rounded-full bg-linen/70 blur-3xl" aria-hidden="true" />
      <div className="container-page relative grid items-center gap-12 py-16 sm:py-20 lg:grid-cols-[1.05fr_1fr] lg:py-28">
        <div>
          <p className="eyebrow">{banner.buttonTwoLink}</p>
          <h1 className="mt-4 text-4xl leading-[1.08] text-forest sm:text-5xl lg:text-6xl">{banner.bannerHeading}</h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-mist">{banner.bannerDetails}</p>
          <div className="mt-9 flex flex-wrap items-center gap-4">
            <SmartLink href={banner.buttonOneLink} className="btn-primary px-7 py-3.5">
              {banner.buttonOneText}
              <span aria-hidden="true">→</span>
            </SmartLink>
          </div>
        </div>
        <div className="relative">
          <div
            className="absolute -bottom-4 -left-4 h-full w-full rounded-3xl border-2 border-brass/50"
            aria-hidden="true"
          />
          {videoId ? (
            <div className="relative aspect-video overflow-hidden rounded-3xl bg-forest shadow-xl">
              <iframe
                src={embedUrl(videoId)}
                title={banner.bannerHeading}
                data-testid="hero-video"
                className="absolute inset-0 h-full w-full"
                loading="lazy"
                allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
                referrerPolicy="strict-origin-when-cross-origin"
              />
            </div>
          ) : (
            <ContentImage
              src={banner.bannerImage}
              sizes="(min-width: 1152px) 560px, (min-width: 1024px) 48vw, 92vw"
              width={1200}
              height={800}
              priority
              testId="hero-image"
              className="relative aspect-[3/2] w-full rounded-3xl object-cover shadow-xl"
            />
          )}
        </div>
      </div>
    </section>
  );
}
