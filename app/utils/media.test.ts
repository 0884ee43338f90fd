import { expect, test } from 'vitest'
import { mediaUrl } from './media'

test('maps provider media URLs onto this site', () => {
  expect(mediaUrl('http://127.0.0.1:8000/media/photos/a1.webp')).toBe('/media/photos/a1.webp')
  expect(mediaUrl('/media/photos/a1.png')).toBe('/media/photos/a1.png')
})

test('refuses anything else', () => {
  expect(mediaUrl(null)).toBeNull()
  expect(mediaUrl('https://evil.example/x.png')).toBeNull()
  expect(mediaUrl('http://127.0.0.1:8000/users/me/')).toBeNull()
})
