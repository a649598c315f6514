// Saving the web board's picture: the page's SVG as it is now (cheeseboard.picture's drawing,
// recoloured with the last frame), and the same rasterised by the browser as PNG.

export function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function svgText(svg) {
  return new XMLSerializer().serializeToString(svg);
}

export function savePng(svg, name) {
  const img = new Image();
  img.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = svg.width.baseVal.value;
    canvas.height = svg.height.baseVal.value;
    canvas.getContext("2d").drawImage(img, 0, 0);
    canvas.toBlob((b) => download(b, name));
  };
  img.src = "data:image/svg+xml;base64," + btoa(unescape(encodeURIComponent(svgText(svg))));
}
