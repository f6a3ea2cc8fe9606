// Keccak-f[1600] and SHAKE-256 (FIPS 202), lanes as BigInt: the browser's WebCrypto has
// SHA-256 but no SHAKE, and the deal's words come from SHAKE-256 (verify-deal.js).
const MASK = (1n << 64n) - 1n;

function roundConstants() {
  // FIPS 202 Algorithm 5: the bits of an 8-bit LFSR, x^8 + x^6 + x^5 + x^4 + 1.
  const bit = (t) => {
    let r = 1;
    for (let i = 0; i < t % 255; i++) {
      r <<= 1;
      if (r & 0x100) r ^= 0x171;
    }
    return BigInt(r & 1);
  };
  const out = [];
  for (let round = 0; round < 24; round++) {
    let rc = 0n;
    for (let j = 0; j < 7; j++) rc |= bit(j + 7 * round) << BigInt((1 << j) - 1);
    out.push(rc);
  }
  return out;
}

function rotationOffsets() {
  // FIPS 202 step rho: walk (x, y) from (1, 0); offset (t + 1)(t + 2) / 2 mod 64.
  const offsets = new Array(25).fill(0n);
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t++) {
    offsets[x + 5 * y] = BigInt((((t + 1) * (t + 2)) / 2) % 64);
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
  return offsets;
}

const RC = roundConstants();
const RHO = rotationOffsets();

const rotl = (v, n) => (n === 0n ? v : ((v << n) | (v >> (64n - n))) & MASK);

function keccakF(lanes) {
  const c = new Array(5);
  const b = new Array(25);
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 5; x++) {
      c[x] = lanes[x] ^ lanes[x + 5] ^ lanes[x + 10] ^ lanes[x + 15] ^ lanes[x + 20];
    }
    for (let x = 0; x < 5; x++) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1n);
      for (let y = 0; y < 25; y += 5) lanes[x + y] ^= d;
    }
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(lanes[x + 5 * y], RHO[x + 5 * y]);
      }
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        lanes[x + y] = b[x + y] ^ (~b[((x + 1) % 5) + y] & MASK & b[((x + 2) % 5) + y]);
      }
    }
    lanes[0] ^= RC[round];
  }
}

/** SHAKE-256 of `data` (Uint8Array), `length` bytes of output. */
export function shake256(data, length) {
  const rate = 136;
  const padded = new Uint8Array(Math.floor(data.length / rate) * rate + rate);
  padded.set(data);
  padded[data.length] ^= 0x1f; // SHAKE's domain bits and the first bit of pad10*1
  padded[padded.length - 1] ^= 0x80;
  const lanes = new Array(25).fill(0n);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) {
      let lane = 0n;
      for (let k = 7; k >= 0; k--) lane = (lane << 8n) | BigInt(padded[off + 8 * i + k]);
      lanes[i] ^= lane;
    }
    keccakF(lanes);
  }
  const out = new Uint8Array(length);
  for (let pos = 0; pos < length; ) {
    for (let i = 0; i < rate / 8 && pos < length; i++) {
      let lane = lanes[i];
      for (let k = 0; k < 8 && pos < length; k++, pos++) {
        out[pos] = Number(lane & 0xffn);
        lane >>= 8n;
      }
    }
    if (pos < length) keccakF(lanes);
  }
  return out;
}
