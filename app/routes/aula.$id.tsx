import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from '@remix-run/node'
import { Form, Link, type ShouldRevalidateFunction, useActionData, useLoaderData } from '@remix-run/react'
import { useRef, useState } from 'react'
import { type LessonPageView, completeAction, lessonPageView } from '#app/features/courses/courses.server.ts'
import { useTranslation } from '#app/i18n/react.tsx'
import { getFixedT, languageOf } from '#app/i18n/i18next.server.ts'
import { getLesson } from '#app/provider/courses.server.ts'
import { errorResponseFor } from '#app/provider/responses.server.ts'
import { requireUser } from '#app/session/auth.server.ts'
import { CheckIcon, LockBox } from '#app/ui/courses/course-parts.tsx'
import { useLessonProgress } from '#app/ui/courses/use-lesson-progress.ts'
import { FormError, SubmitButton } from '#app/ui/forms.tsx'
import { showClientToast } from '#app/ui/toast-state.ts'
import { pageMeta } from '#app/utils/meta.ts'
import { routeId } from '#app/utils/route-ids.server.ts'

/** The translations its components use, loaded before the page hydrates (besides common). */
export const handle = { i18n: ['courses'] }

/**
 * A lesson (`/aula/{id}`, decision 0057; `/aula/{id}/` matches too): the native player with its
 * captions and the transcript in the page's language, "mark as done" as a form, previous and next.
 * Locked: no video at all, only what it is and how to get it. One provider call; private.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { auth } = await requireUser(request)
  const id = routeId(params)
  const language = await languageOf(request)
  const [t, lesson] = await Promise.all([getFixedT(request, ['courses', 'common']), getLesson(auth, id, language).catch(errorResponseFor)])
  const view = lessonPageView(lesson, { language, t })
  return data(
    {
      meta: { title: `${view.title} · ${view.course.title} · Innera`, description: view.summary },
      lesson: view,
    },
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => pageMeta(data?.meta)

/** "Marcar como concluída". */
export async function action({ request, params }: ActionFunctionArgs) {
  const { auth } = await requireUser(request)
  return completeAction(request, auth, routeId(params))
}

/** A progress report (app/routes/aula.$id_.progresso.ts) never reloads the lesson: the player would start over. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) => (formAction?.endsWith('/progresso') ? false : defaultShouldRevalidate)

export default function LessonPage() {
  const { lesson } = useLoaderData<typeof loader>()
  // A new lesson is a new page: its player, its reports and its "done" start afresh.
  return <Lesson key={lesson.id} lesson={lesson} />
}

function Lesson({ lesson }: { lesson: LessonPageView }) {
  const reply = useActionData<typeof action>()
  const { t } = useTranslation('courses')
  const [doneHere, setDoneHere] = useState(false)
  const completed = lesson.completed || doneHere
  return (
    <main id="main" className="container-page py-10">
      <p className="flex flex-wrap gap-x-3 text-sm">
        <Link to={`/cursos/${lesson.course.id}`} className="link">
          <span className="sr-only">{t('lesson.course')}: </span>
          {lesson.course.title}
        </Link>
        <span className="text-muted">{t('lesson.of', { number: lesson.number, total: lesson.total })}</span>
      </p>
      <h1 className="mt-2 text-3xl font-bold">{lesson.title}</h1>
      <p className="mt-2 max-w-3xl text-lg text-muted">{lesson.summary}</p>

      {lesson.lock ? (
        <div className="mt-6 max-w-3xl">
          <LockBox id="lock-title" title={t('lock.lessonTitle')} why={t('lock.lessonWhy')} price={lesson.lock.price} productId={lesson.lock.productId}>
            <p className="mt-2 text-sm text-muted">{t('lesson.duration', { duration: lesson.duration })}</p>
          </LockBox>
        </div>
      ) : (
        <div className="mt-6 grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <div>
            {lesson.video ? (
              <Player lesson={lesson} video={lesson.video} onCompleted={() => setDoneHere(true)} />
            ) : (
              <p className="rounded-2xl bg-white p-6">{t('lesson.unavailable')}</p>
            )}
            <Completion lessonId={lesson.id} completed={completed} error={reply && 'error' in reply ? reply.error : null} />
          </div>
          <Transcript cues={lesson.transcript} />
        </div>
      )}

      <LessonNavigation lesson={lesson} />
    </main>
  )
}

function Player({ lesson, video, onCompleted }: { lesson: LessonPageView; video: NonNullable<LessonPageView['video']>; onCompleted: () => void }) {
  const { t } = useTranslation('courses')
  const element = useRef<HTMLVideoElement>(null)
  useLessonProgress(element, {
    lessonId: lesson.id,
    position: lesson.position,
    onCompleted: () => {
      onCompleted()
      showClientToast({ type: 'success', message: { key: 'courses:toast.completed' } })
    },
  })
  return (
    <figure>
      <video ref={element} controls preload="metadata" poster={video.poster ?? undefined} className="aspect-video w-full rounded-2xl bg-black" data-testid="lesson-video">
        <source src={video.src} type={video.type} />
        {video.captions.map((caption) => (
          <track key={caption.lang} kind="captions" srcLang={caption.lang} label={caption.label} src={caption.src} default={caption.default} />
        ))}
        <p>{t('lesson.noVideo')}</p>
      </video>
      <figcaption className="mt-2 flex flex-wrap justify-between gap-2 text-sm">
        <span className="text-muted">{t('lesson.duration', { duration: lesson.duration })}</span>
        <a href={video.file} className="link" download>
          {t('lesson.download', { size: video.size })}
        </a>
      </figcaption>
    </figure>
  )
}

/** Done, or the form that says so (a plain post: it works without JavaScript). */
function Completion({ lessonId, completed, error }: { lessonId: number; completed: boolean; error: string | null }) {
  const { t } = useTranslation('courses')
  return (
    <div className="mt-6">
      <FormError errors={error && !completed ? [error] : null} />
      {completed ? (
        <p className="inline-flex items-center gap-2 rounded-full bg-brand-100 px-4 py-2 font-semibold text-brand-800" data-testid="lesson-completed">
          <CheckIcon className="size-5" />
          {t('lesson.completed')}
        </p>
      ) : (
        <Form method="post" action={`/aula/${lessonId}`} className="mt-3">
          <SubmitButton name="intent" value="complete" className="btn-primary" pendingText={t('lesson.completing')}>
            {t('lesson.complete')}
          </SubmitButton>
        </Form>
      )}
    </div>
  )
}

function Transcript({ cues }: { cues: LessonPageView['transcript'] }) {
  const { t } = useTranslation('courses')
  return (
    <section aria-labelledby="transcript-title" className="h-fit rounded-2xl bg-white p-5 shadow-sm">
      <h2 id="transcript-title" className="text-xl font-semibold">
        {t('lesson.transcript')}
      </h2>
      {cues.length === 0 ? (
        <p className="mt-2 text-muted">{t('lesson.transcriptEmpty')}</p>
      ) : (
        // Scrolls on its own beside the video on wide screens: focusable, so a keyboard can scroll it too.
        <ol tabIndex={0} aria-labelledby="transcript-title" className="mt-3 space-y-3 lg:max-h-[28rem] lg:overflow-y-auto lg:pr-2" data-testid="transcript">
          {cues.map((cue, index) => (
            <li key={`${index}-${cue.start}`} className="flex gap-3">
              <span className="shrink-0 font-mono text-sm text-muted">{cue.at}</span>
              <span>{cue.text}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

function LessonNavigation({ lesson }: { lesson: LessonPageView }) {
  const { t } = useTranslation('courses')
  return (
    <nav aria-label={t('lesson.navigation')} className="mt-10 flex flex-wrap items-center justify-between gap-3 border-t border-brand-100 pt-6">
      {lesson.previousId ? (
        <Link to={`/aula/${lesson.previousId}`} className="btn-secondary" rel="prev">
          <span aria-hidden="true">←</span> {t('lesson.previous')}
        </Link>
      ) : (
        <span />
      )}
      <Link to={`/cursos/${lesson.course.id}`} className="link">
        {t('lesson.backToCourse')}
      </Link>
      {lesson.nextId ? (
        <Link to={`/aula/${lesson.nextId}`} className="btn-primary" rel="next">
          {t('lesson.next')} <span aria-hidden="true">→</span>
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}
