import { describe, expect, test } from 'vitest'
import { mediaOrigins, mediaUrl, playableMediaUrl, signedMediaUrl } from './media'

test('maps provider media URLs onto this site', () => {
  expect(mediaUrl('http://127.0.0.1:8000/media/photos/a1.webp')).toBe('/media/photos/a1.webp')
  expect(mediaUrl('/media/photos/a1.png')).toBe('/media/photos/a1.png')
  expect(mediaUrl('http://127.0.0.1:8000/media/lessons/x.jpg?v=2')).toBe('/media/lessons/x.jpg')
})

test('refuses anything else', () => {
  expect(mediaUrl(null)).toBeNull()
  expect(mediaUrl('https://evil.example/x.png')).toBeNull()
  expect(mediaUrl('http://127.0.0.1:8000/users/me/')).toBeNull()
})

test('a signed media URL keeps its query (the signature), not its fragment', () => {
  const signed = 'http://127.0.0.1:8000/media/lessons/sono-1.mp4?expires=1790000000&signature=ab12cd'
  expect(signedMediaUrl(signed)).toBe('/media/lessons/sono-1.mp4?expires=1790000000&signature=ab12cd')
  expect(signedMediaUrl(`${signed}#t=12`)).toBe('/media/lessons/sono-1.mp4?expires=1790000000&signature=ab12cd')
  expect(signedMediaUrl('http://127.0.0.1:8000/media/lessons/a.vtt')).toBe('/media/lessons/a.vtt')
  expect(signedMediaUrl('https://evil.example/media/../x.mp4?signature=1')).toBeNull()
  expect(signedMediaUrl(undefined)).toBeNull()
})

describe('MEDIA_BASE_URL', () => {
  const base = 'https://cdn.example.com/innera'
  const video = `${base}/media/lessons/sono-1.mp4?expires=1790000000&signature=ab12cd`

  test('a video signed on the base is played from there, its query kept and its fragment dropped', () => {
    expect(playableMediaUrl(video, base)).toBe(video)
    expect(playableMediaUrl(`${video}#t=3`, base)).toBe(video)
  })

  test('captions and posters on the base come through this site, under the same path and signature', () => {
    expect(signedMediaUrl(`${base}/media/lessons/sono-1.pt.vtt?expires=1&signature=ff`, base)).toBe('/media/lessons/sono-1.pt.vtt?expires=1&signature=ff')
    expect(mediaUrl(`${base}/media/lessons/sono-1.jpg`, base)).toBe('/media/lessons/sono-1.jpg')
  })

  test('without a base, or for an address elsewhere, the video goes through this site', () => {
    expect(playableMediaUrl(video)).toBeNull()
    expect(playableMediaUrl('http://127.0.0.1:8000/media/lessons/sono-1.mp4?expires=1&signature=ff', base)).toBe('/media/lessons/sono-1.mp4?expires=1&signature=ff')
    expect(playableMediaUrl('https://cdn.example.com/other/media/lessons/x.mp4', base)).toBeNull()
    expect(playableMediaUrl(`${base}/media/../secret.mp4`, base)).toBeNull()
    expect(playableMediaUrl(`${base}.evil.example/media/lessons/x.mp4`, base)).toBeNull()
  })

  test("the CSP's media-src names the base's origin", () => {
    expect(mediaOrigins(base)).toEqual(['https://cdn.example.com'])
    expect(mediaOrigins(undefined)).toEqual([])
  })
})
