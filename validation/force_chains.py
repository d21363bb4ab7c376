"""Force chains of a frame, drawn by ParaView (pvpython; validation/network.sh runs it under
xvfb-run): the contact network's lines through a Tube filter whose radius varies with the
contact's |f| and coloured by it, over the grains as translucent spheres.

    pvpython validation/force_chains.py GRAINS.vtp CONTACTS.vtp OUT.png
"""
import sys

from paraview.simple import (Glyph, Tube, GetActiveViewOrCreate, Show, ColorBy, SaveScreenshot,
                             GetColorTransferFunction, GetScalarBar, XMLPolyDataReader, Render)

grains_file, contacts_file, png = sys.argv[1:4]
view = GetActiveViewOrCreate("RenderView")
view.ViewSize = [1200, 900]
view.UseColorPaletteForBackground = 0
view.Background = [1, 1, 1]
view.OrientationAxesVisibility = 0

grains = XMLPolyDataReader(FileName=[grains_file])
spheres = Glyph(Input=grains, GlyphType="Sphere")
spheres.ScaleArray = ["POINTS", "radius"]
spheres.ScaleFactor = 2.0
spheres.GlyphMode = "All Points"
shown = Show(spheres, view)
shown.ColorArrayName = ["POINTS", ""]
shown.DiffuseColor = [0.75, 0.75, 0.75]
shown.Opacity = 0.15

contacts = XMLPolyDataReader(FileName=[contacts_file])
contacts.UpdatePipeline()
lo, hi = contacts.PointData["force"].GetRange()
tubes = Tube(Input=contacts)
tubes.Scalars = ["POINTS", "force"]
tubes.VaryRadius = "By Scalar"
tubes.RadiusFactor = 10.0
tubes.NumberofSides = 10
# the weakest tube a twentieth of a grain's radius (grains' radius from the frame)
grains.UpdatePipeline()
r_lo, r_hi = grains.PointData["radius"].GetRange()
tubes.Radius = 0.05 * r_lo
chains = Show(tubes, view)
ColorBy(chains, ("POINTS", "force"))
lut = GetColorTransferFunction("force")
lut.ApplyPreset("Inferno (matplotlib)", True)
lut.RescaleTransferFunction(lo, hi)
chains.SetScalarBarVisibility(view, True)
bar = GetScalarBar(lut, view)
bar.Title = "|f| (N)"
bar.ComponentTitle = ""
bar.TitleColor = bar.LabelColor = [0, 0, 0]

# from the side (along y), a little above: the chains run down from the piston to the floor
x0, x1, y0, y1, z0, z1 = contacts.GetDataInformation().GetBounds()
centre = [(x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2]
span = max(x1 - x0, z1 - z0)
view.CameraFocalPoint = centre
view.CameraPosition = [centre[0], centre[1] - 1.5 * span, centre[2] + 0.4 * span]
view.CameraViewUp = [0, 0, 1]
view.CameraParallelProjection = 0
Render(view)
SaveScreenshot(png, view, ImageResolution=[1200, 900])
