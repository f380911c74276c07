# Rectangles [x, y, width, height] of the vision corpus's ground truth.


def covered_share(box, above):
    """The share of `box` that the rectangles `above` cover (sampled on a 16x16 grid)."""
    if not above:
        return 0.0
    x, y, w, h = box
    hits = 0
    for i in range(16):
        for j in range(16):
            px, py = x + (i + 0.5) * w / 16, y + (j + 0.5) * h / 16
            if any(a[0] <= px < a[0] + a[2] and a[1] <= py < a[1] + a[3] for a in above):
                hits += 1
    return hits / 256.0


def inside(box, rect):
    return box[0] >= rect[0] and box[1] >= rect[1] and box[0] + box[2] <= rect[0] + rect[2] and \
        box[1] + box[3] <= rect[1] + rect[3]


def clip(box, rect):
    x1, y1 = max(box[0], rect[0]), max(box[1], rect[1])
    x2, y2 = min(box[0] + box[2], rect[0] + rect[2]), min(box[1] + box[3], rect[1] + rect[3])
    return [x1, y1, max(0, x2 - x1), max(0, y2 - y1)]
