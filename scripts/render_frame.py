"""The last frame of a rubble run drawn by ParaView (pvpython, under xvfb-run where there is no
display; scripts/render_examples.sh runs it for every example):

    pvpython scripts/render_frame.py OUTPUT_FOLDER OUT.png [COLOUR] [WALL_COLOUR] [VIEW]

Grains as spheres of their radius (Glyph of "radius", scale factor 2: ParaView's sphere has
radius 0.5), coloured by COLOUR: "speed" (|velocity|, the default), "height" (z), or a point
array of the frame ("radius", "clump", "stress": a tensor by its norm), or "-" (one colour);
impulse objects as ellipsoids (Tensor Glyph of "shape", scale
factor 2); the walls (the frame's walls_NNNNNN.vtp where they move, else walls.vtp) as a
translucent grey surface with its outline, or coloured by WALL_COLOUR (a cell array: "wear",
"pressure"; "-" for none). VIEW: "side" (along +y, a little above), "top" or "oblique" (the
default). 900 x 675 pixels."""
import glob
import os
import sys

from paraview.simple import (Calculator, ColorBy, FeatureEdges, GetActiveViewOrCreate,
                             GetColorTransferFunction, GetScalarBar, Glyph, OpenDataFile, Render,
                             SaveScreenshot, Show, TensorGlyph)

folder, png = sys.argv[1], sys.argv[2]
colour = sys.argv[3] if len(sys.argv) > 3 else "speed"
wall_colour = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] != "-" else None
view_kind = sys.argv[5] if len(sys.argv) > 5 else "oblique"


def last(pattern):
    found = sorted(glob.glob(os.path.join(folder, pattern)))
    return found[-1] if found else None


def reader(path):
    return OpenDataFile(path)  # .vtp, or a .pvtp gathering several processes' pieces


view = GetActiveViewOrCreate("RenderView")
SIZE = [900, 675]
view.ViewSize = SIZE
view.UseColorPaletteForBackground = 0
view.Background = [1, 1, 1]
view.OrientationAxesVisibility = 0


def colour_bar(shown, association, name, title):
    ColorBy(shown, (association, name))
    lut = GetColorTransferFunction(name)
    lut.ApplyPreset("Viridis (matplotlib)", True)
    shown.RescaleTransferFunctionToDataRange(True, False)
    shown.SetScalarBarVisibility(view, True)
    bar = GetScalarBar(lut, view)
    bar.Title = title
    bar.ComponentTitle = ""
    bar.TitleColor = bar.LabelColor = [0, 0, 0]


def coloured(source):
    """source with the derived colour arrays added."""
    if colour == "speed":
        return Calculator(Input=source, ResultArrayName="speed", Function="mag(velocity)")
    if colour == "height":
        return Calculator(Input=source, ResultArrayName="height", Function="coordsZ")
    if colour == "clump":  # 1 for a clump's sphere, 0 for a sphere of its own
        return Calculator(Input=source, ResultArrayName="in_clump", Function="min(clump+1, 1)")
    return source


frame = last("grains_[0-9]*.pvtp") or last("grains_[0-9]*.vtp")
objects = last("objects_[0-9]*.vtp")
bodies = None
if frame:
    source = coloured(reader(frame))
    bodies = Glyph(Input=source, GlyphType="Sphere")
    bodies.ScaleArray = ["POINTS", "radius"]
    bodies.ScaleFactor = 2.0
    bodies.GlyphMode = "All Points"
    bodies.GlyphType.ThetaResolution = 16
    bodies.GlyphType.PhiResolution = 12
elif objects:
    source = coloured(reader(objects))
    bodies = TensorGlyph(Input=source, GlyphType="Sphere")
    bodies.Tensors = ["POINTS", "shape"]
    if colour != "-":  # the objects' own values on their glyphs
        bodies.Scalars = ["POINTS", "in_clump" if colour == "clump" else colour]
        bodies.ColorGlyphs = 1
    bodies.ScaleFactor = 2.0
    bodies.GlyphType.ThetaResolution = 24
    bodies.GlyphType.PhiResolution = 16
else:
    sys.exit("render_frame.py: no grains_NNNNNN.vtp or objects_NNNNNN.vtp in " + folder)
shown = Show(bodies, view)
titles = {"speed": "|v| (m/s)", "height": "z (m)", "stress": "|stress| (Pa)",
          "in_clump": "in a clump (1) or not (0)"}
colour = "in_clump" if colour == "clump" else colour
if colour == "-":
    shown.ColorArrayName = ["POINTS", ""]
    shown.DiffuseColor = [0.85, 0.45, 0.2]
else:
    colour_bar(shown, "POINTS", colour, titles.get(colour, colour))

walls_file = last("walls_[0-9]*.vtp") or last("walls.vtp")
if walls_file:
    walls = reader(walls_file)
    drawn = Show(walls, view)
    if wall_colour:
        colour_bar(drawn, "CELLS", wall_colour, wall_colour)
        drawn.Opacity = 0.9
    else:
        drawn.ColorArrayName = ["POINTS", ""]
        drawn.DiffuseColor = [0.6, 0.6, 0.65]
        drawn.Opacity = 0.12
        outline = Show(FeatureEdges(Input=walls), view)
        outline.ColorArrayName = ["POINTS", ""]
        outline.DiffuseColor = outline.AmbientColor = [0.3, 0.3, 0.3]

bodies.UpdatePipeline()
x0, x1, y0, y1, z0, z1 = bodies.GetDataInformation().GetBounds()
centre = [(x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2]
span = max(x1 - x0, y1 - y0, z1 - z0)
direction = {"side": (0, -1, 0.2), "top": (0, -0.3, 1), "oblique": (0.7, -1.2, 0.8)}[view_kind]
view.CameraFocalPoint = centre
view.CameraPosition = [centre[k] + 1.8 * span * direction[k] for k in range(3)]
view.CameraViewUp = [0, 0, 1] if view_kind != "top" else [0, 1, 0]
view.CameraParallelProjection = 0
view.ResetCamera(False)
Render(view)
SaveScreenshot(png, view, ImageResolution=SIZE)
