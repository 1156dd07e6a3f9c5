import { expect, it } from 'vitest'
import { countedClient } from '../../src/core/rate-limit/counted-client.js'

it('counts a global or unique local IPv6 address as its /64 network, however it is written (D32)', () => {
  expect(countedClient('2001:db8:1:2:a:b:c:d')).toBe('2001:db8:1:2::/64')
  expect(countedClient('2001:DB8:1:2::ffff')).toBe('2001:db8:1:2::/64')
  expect(countedClient('2001:0db8:0001:0002:0000:0000:0000:0001')).toBe('2001:db8:1:2::/64')
  expect(countedClient('2001:db8::1')).toBe('2001:db8::/64')
  expect(countedClient('2001:db8:0:0:1::')).toBe('2001:db8::/64')
  expect(countedClient('2a00:1450:4001:81c::200e')).toBe('2a00:1450:4001:81c::/64')
  expect(countedClient('fd12:3456:789a:1::5')).toBe('fd12:3456:789a:1::/64')
  expect(countedClient('2001:db8:1:3::a')).not.toBe(countedClient('2001:db8:1:2::a'))
})

it('counts every other address as itself: IPv4, IPv4-mapped, loopback, link-local, Teredo, anything else', () => {
  for (const address of [
    '203.0.113.7',
    '::ffff:203.0.113.7',
    '::ffff:cb00:7107',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'local',
    'unknown',
    '2001:db8::g',
    '2001:db8:::1',
    ':',
    '',
  ]) {
    expect(countedClient(address)).toBe(address)
  }
})
