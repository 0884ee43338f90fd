import { expect, test } from 'vitest'
import { mediaUrl, signedMediaUrl } from './media'

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
