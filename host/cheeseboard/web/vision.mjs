// The board as a colour-blind player sees it: Machado, Oliveira and Fernandes (2009)'s
// simulation of protanopia, deuteranopia and tritanopia at full severity, the same that the
// LED language's checks run through the daltonlens library (tests/engine/colour_vision.py). A colour
// is turned into linear light, multiplied by its vision's matrix, clipped and turned back into
// sRGB, as daltonlens's simulate_cvd does. The matrices are daltonlens's
// machado_2009_matrices[...][10]; tests/web/test_web_vision.py checks them against it and the
// page's colours against its simulation.
export const VISIONS = {
  normal: "normal vision",
  protan: "protanopia (no red cones)",
  deutan: "deuteranopia (no green cones)",
  tritan: "tritanopia (no blue cones)",
};

export const MATRICES = {
  protan: [0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998],
  deutan: [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.01182, 0.04294, 0.968881],
  tritan: [1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.3039],
};

const toLinear = (v) => (v < 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const toSrgb = (v) => {
  const c = Math.min(1, Math.max(0, v));
  return c < 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
};

// [r, g, b] (0..255) as a player with that vision sees it ("normal": as it is).
export function seen(rgb, vision) {
  const m = MATRICES[vision];
  if (!m) return rgb;
  const lin = rgb.map((v) => toLinear(v / 255));
  return [0, 3, 6].map((k) =>
    Math.round(255 * toSrgb(m[k] * lin[0] + m[k + 1] * lin[1] + m[k + 2] * lin[2])));
}
